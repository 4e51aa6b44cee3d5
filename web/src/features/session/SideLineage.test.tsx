import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SideLineage } from './SideLineage';

// The placeholder beside the tree says how many child sessions there are: the number the header's "Child sessions
// (showing 500 of 1,378)" says, not the length of the list the detail carries (capped at 500: the placeholder said
// "500 child sessions" for the bench's largest family).

const text = (html: string) => html.replace(/<[^>]+>/g, '');

describe('the lineage placeholder of a session with many children', () => {
  it('counts every child, not the ones the detail lists', () => {
    expect(text(renderToStaticMarkup(<SideLineage sessionId="s" childCount={1378} />))).toBe(
      'This session has 1,378 child sessions (subagents, title, summaries). Show the lineage graph',
    );
  });
});
