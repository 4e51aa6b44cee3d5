// One Copilot CLI `events.jsonl` being written (INTEROP §3): the envelope exactly as the CLI writes it
// (`type`, `data`, `id`, `timestamp`, `parentId`, then `agentId` on a subagent's own events), `parentId` the
// previous event's id (never a logical parent), and the counts the manifest promises kept as it goes.
import fs from 'node:fs';
import type { Rng } from './random';

export interface CliLogStats {
  /** Lines that are events by the envelope rule (string type/id/timestamp, object data). */
  events: number;
  /** '\n'-terminated lines, events or not. */
  completeLines: number;
  /** Lines that are not events (garbage, missing id, data not an object); a cut last line is not counted. */
  badLines: number;
  partialTail: boolean;
  /** jq: `[.[] | select(.type == "assistant.message") | .data.outputTokens] | add` over the event lines. */
  outputTokens: number;
  bytes: number;
}

export class CliLog {
  /** Milliseconds since epoch of the next event; callers move it forward. */
  t: number;
  private readonly lines: string[] = [];
  private previousId: string | null = null;
  private readonly stats: CliLogStats = { events: 0, completeLines: 0, badLines: 0, partialTail: false, outputTokens: 0, bytes: 0 };

  constructor(
    private readonly rng: Rng,
    start: number,
  ) {
    this.t = start;
  }

  get bytes(): number {
    return this.stats.bytes;
  }

  get eventCount(): number {
    return this.stats.events;
  }

  /** Appends an event `ms` after the previous one and returns its id. */
  emit(type: string, data: Record<string, unknown>, opts: { agentId?: string; after?: number } = {}): string {
    this.t += opts.after ?? this.rng.int(1, 40);
    const id = this.rng.uuid();
    const envelope: Record<string, unknown> = { type, data, id, timestamp: new Date(this.t).toISOString(), parentId: this.previousId };
    if (opts.agentId !== undefined) envelope.agentId = opts.agentId;
    this.previousId = id;
    this.stats.events++;
    if (type === 'assistant.message' && typeof data.outputTokens === 'number') this.stats.outputTokens += data.outputTokens;
    this.push(JSON.stringify(envelope) + '\n');
    return id;
  }

  /** A line that is not an event (the envelope rule refuses it); `parentId` of the next event is unaffected. */
  notAnEvent(line: string): void {
    this.stats.badLines++;
    this.push(line + '\n');
  }

  /** The first `keep` characters of an event line with no newline: a writer killed mid-line. Ends the file. */
  cutTail(type: string, data: Record<string, unknown>, keep: number): void {
    const line = JSON.stringify({ type, data, id: this.rng.uuid(), timestamp: new Date(this.t + 5).toISOString(), parentId: this.previousId });
    this.stats.partialTail = true;
    this.lines.push(line.slice(0, Math.min(keep, line.length - 1)));
    this.stats.bytes += Buffer.byteLength(this.lines[this.lines.length - 1]);
  }

  private push(line: string): void {
    if (this.stats.partialTail) throw new Error('nothing can follow a cut last line');
    this.lines.push(line);
    this.stats.completeLines++;
    this.stats.bytes += Buffer.byteLength(line);
  }

  /** Writes the file and sets its mtime to the last event (CLI sessions are small: buffered whole). */
  close(file: string): CliLogStats {
    fs.writeFileSync(file, this.lines.join(''));
    const mtime = new Date(this.t);
    fs.utimesSync(file, mtime, mtime);
    return { ...this.stats };
  }
}
