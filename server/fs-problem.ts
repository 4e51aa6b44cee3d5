// A file system error in people's words, the path first: what the health page lists for a log folder and what a
// command prints for a file it cannot read ("/x.json does not exist", not "ENOENT").

export function fsProblem(file: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return `${file} does not exist`;
  if (code === 'EACCES' || code === 'EPERM') return `${file} is not readable (permission denied)`;
  if (code === 'ENOTDIR') return `${file} is not a folder`;
  if (code === 'EISDIR') return `${file} is a folder, not a file`;
  return `${file}: ${err instanceof Error ? err.message : String(err)}`;
}
