import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RepositorySelect } from './SessionFilters';

describe('RepositorySelect', () => {
  it('"All" counts repositories and says the sessions separately; each repository counts its sessions', () => {
    const html = renderToStaticMarkup(
      <RepositorySelect
        value={undefined}
        onChange={() => {}}
        repositories={[
          { name: 'me/app', sessions: 3, lastActivity: 2 },
          { name: 'me/lib', sessions: 1, lastActivity: 1 },
          { name: null, sessions: 2, lastActivity: 0 },
        ]}
      />,
    );
    const options = [...html.matchAll(/<option[^>]*>([^<]*)<\/option>/g)].map((m) => m[1]);
    expect(options[0]).toBe('All 2 repositories (6 sessions)');
    expect(options.slice(1, 3)).toEqual(['me/app (3)', 'me/lib (1)']);
  });
});
