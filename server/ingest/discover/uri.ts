import path from 'node:path';

export interface ParsedUri {
  scheme: string;
  authority: string;
  /** Percent-decoded. */
  path: string;
}

const URI_SHAPE = /^([a-zA-Z][a-zA-Z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)/;

/** Splits a URI string as VS Code writes it (`file:///home/me/my%20proj`, `vscode-remote://ssh-remote+h/x`). */
export function parseUri(uri: string): ParsedUri | null {
  const m = URI_SHAPE.exec(uri.trim());
  // A single letter before ":" is a Windows drive, not a scheme.
  if (!m || m[1].length === 1) return null;
  return { scheme: m[1].toLowerCase(), authority: percentDecode(m[2] ?? ''), path: percentDecode(m[3] ?? '') };
}

export function isFileUri(uri: string): boolean {
  return parseUri(uri)?.scheme === 'file';
}

/**
 * The file-system path a URI names: for `file:` URIs the local path (UNC and drive letters included), for
 * other schemes (`vscode-remote:`, `vscode-vfs:`) the path on that remote. A plain path is returned as is.
 */
export function uriToPath(uri: string, platform: NodeJS.Platform = process.platform): string | null {
  const parsed = parseUri(uri);
  if (!parsed) return uri.trim() === '' ? null : uri.trim();
  if (parsed.scheme !== 'file') return parsed.path || '/';
  const p = platform === 'win32' ? path.win32 : path.posix;
  let fsPath = parsed.path;
  if (parsed.authority && parsed.authority !== 'localhost') fsPath = `//${parsed.authority}${fsPath}`;
  else if (/^\/[a-zA-Z]:/.test(fsPath)) fsPath = fsPath.slice(1);
  return platform === 'win32' ? p.normalize(fsPath.replace(/\//g, '\\')) : fsPath;
}

/** decodeURIComponent that leaves malformed escapes as they are instead of throwing. */
export function percentDecode(s: string): string {
  return s.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
