import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { missNotes } from './miss-notes';
import type { Row } from './report';

const row = (measurement: string, met: boolean | null): Row => ({ measurement, ours: '', baseline: '', ratio: '', target: '', met });

// The measurements as BENCHMARKS.md of 2026-12-07 names them (bench/run.ts builds them with the run's numbers).
const MEASUREMENTS = [
  'backfill throughput (1718 MB, 2,756,385 events, 15597 files)',
  'peak RSS of the server process tree during backfill (each whole backfill\'s own peak)',
  'held-out corpus (105 MB, seed 1042, not the corpus tuned on): backfill rate as a share of a JSON.parse pass over the same files (median of 3 alternations)',
  'time until every session of the newest 7 days is indexed (914 sessions (868 Copilot CLI), 2402 log and usage files, 170 MB (48 MB CLI); backfill newest sessions first)',
  'search: rare word (quokkaflux)',
  '/api/health during those bursts (198 requests)',
];

describe('the notes under BENCHMARKS.md say what was tried for each missed target', () => {
  it('gives a missed row its note, and nothing for a row met or not judged', () => {
    expect(missNotes(MEASUREMENTS.map((m) => row(m, true)))).toEqual([]);
    expect(missNotes(MEASUREMENTS.map((m) => row(m, null)))).toEqual([]);
    const notes = missNotes(MEASUREMENTS.map((m) => row(m, false)));
    expect(notes.map((n) => n.slice(0, n.indexOf(' (')))).toEqual(['Backfill throughput', 'Peak RSS', 'Held-out corpus', 'Newest week', 'Query rows', 'Concurrency']);
  });

  it('gives one note for several missed rows of one target', () => {
    const notes = missNotes([row('search: rare word (quokkaflux)', false), row('triage: slowest calls (first page)', false), row('sessions list (first page)', false)]);
    expect(notes).toHaveLength(1);
    expect(notes[0].startsWith('Query rows (')).toBe(true);
  });

  // Each note is a summary: the steps and their measurements are in docs/performance-history.md, which must have the section it names.
  it('names a section of docs/performance-history.md that exists', () => {
    const history = fs.readFileSync(path.join(import.meta.dirname, '../docs/performance-history.md'), 'utf8');
    const sections = [...history.matchAll(/^## (.+?) \(/gm)].map((m) => m[1]);
    for (const note of missNotes(MEASUREMENTS.map((m) => row(m, false)))) {
      const named = /docs\/performance-history\.md, "([^"]+)"\.$/.exec(note);
      expect(named, note.slice(0, 40)).not.toBeNull();
      expect(sections).toContain(named![1]);
    }
  });
});
