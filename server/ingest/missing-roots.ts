import fs from 'node:fs';

/** How often a missing --logs folder is looked for: one stat per missing root, nothing when all exist. */
export const MISSING_ROOT_POLL_MS = 1000;

function isListableFolder(p: string): boolean {
  try {
    if (!fs.statSync(p).isDirectory()) return false;
    fs.readdirSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Roots that do not exist yet (a --logs typo, a drive not mounted, VS Code not run yet) or cannot be listed. A
 * missing path has no folder to put a watcher on, so each is looked at once a second until it is a folder that
 * can be listed; then `onAppear` adopts it and it is no longer looked at.
 */
export class MissingRoots {
  private waiting = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private onAppear: (root: string) => void,
    private everyMs = MISSING_ROOT_POLL_MS,
  ) {}

  add(root: string): void {
    this.waiting.add(root);
    this.timer ??= setInterval(() => this.look(), this.everyMs);
  }

  private look(): void {
    for (const r of this.waiting) {
      if (!isListableFolder(r)) continue;
      this.waiting.delete(r);
      this.onAppear(r);
    }
    if (this.waiting.size === 0) this.close();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
