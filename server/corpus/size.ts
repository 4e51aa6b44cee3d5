// Human sizes for the CLI: "10m", "256M", "1g", "1.5g", "500k" or plain bytes. Units are binary (1g = 1 GiB)
// because targetBytes is compared with file sizes.
const UNITS: Record<string, number> = { '': 1, b: 1, k: 1 << 10, kb: 1 << 10, m: 1 << 20, mb: 1 << 20, g: 1 << 30, gb: 1 << 30 };

export function parseSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? UNITS[m[2].toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new Error(`invalid size "${text}" (examples: 10m, 256m, 1g)`);
  return Math.round(Number(m[1]) * unit);
}
