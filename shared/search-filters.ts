/**
 * The search query language's filter keys (`repo:acme/api`, `source:cli`, …): the server parses them
 * (server/search/query-parser.ts) and the web page leaves their words out of what it highlights (web/src/ui/highlight.ts).
 * One list, so that a key added for one is known to the other.
 */
export const FILTER_KEYS = ['repo', 'branch', 'type', 'tool', 'model', 'status', 'file', 'ref', 'source'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
