import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RequestTimeline } from '../../../../shared/api';
import { Breakdown, RequestRowBar } from './Breakdown';

// The breakdown as the detail pane shows it, rendered to a string: numbers from the server as they are, an unknown
// ttft as "—" (never "0ms"), nothing for a timeline of another event (a stale answer while the next one loads).

const timeline: RequestTimeline = {
  eventId: 12,
  extent: { start: 4600, end: 5600 },
  request: {
    id: 10,
    breakdown: {
      start: 1000,
      end: 9500,
      ttft: 700,
      generation: 2000,
      model: 1000,
      tool: 4510,
      idle: 290,
      calls: [
        { id: 11, start: 1010, dur: 2000, ttft: 500, generation: 1500 },
        { id: 12, start: 4600, dur: 1000, ttft: null, generation: null },
      ],
      callsTotal: 2,
    },
    criticalPath: [],
  },
};

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('Breakdown', () => {
  it("shows the request's parts and the selected call's, an unknown ttft as —", () => {
    const shown = text(renderToStaticMarkup(<Breakdown timeline={timeline} eventId={12} />));
    expect(shown).toContain('Its request 8.50s');
    expect(shown).toContain('Time to first token 700ms 8%');
    expect(shown).toContain('Tools 4.51s 53%');
    expect(shown).toContain('Idle 290ms 3%');
    expect(shown).toContain('This model call 1.00s Time to first token — Generation — Whole call 1.00s 100%');
    expect(shown).not.toContain('0ms 0%');
  });

  it('shows nothing for another event than the selected one', () => {
    expect(renderToStaticMarkup(<Breakdown timeline={timeline} eventId={11} />)).toBe('');
  });
});

describe('RequestRowBar', () => {
  it("shows the request's total on its row and where it went in the title", () => {
    const html = renderToStaticMarkup(<RequestRowBar totals={{ id: 10, start: 1000, end: 9500, ttft: null, generation: null, model: 3700, tool: 4510, idle: 290 }} />);
    expect(text(html)).toBe('8.50s');
    expect(html).toContain('title="The request: 8.50s. Time to first token —, Generation —, Model, no ttft 3.70s, Tools 4.51s, Idle 290ms"');
  });
});
