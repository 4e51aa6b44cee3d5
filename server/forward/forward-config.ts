import fs from 'node:fs';
import path from 'node:path';
import { defaultStateDir, UsageError } from '../config';

/** Where and how `serve` forwards every indexed event (issue 15). */
export interface ForwardConfig {
  /** the traces URL requests are POSTed to */
  endpoint: string;
  protocol: 'http/protobuf' | 'http/json';
  headers: Record<string, string>;
  /** prompts, tool arguments and results, user and agent text: off unless asked for (Copilot's captureContent) */
  content: boolean;
}

interface Sources {
  flags: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  /** `--config FILE`, else `<state dir>/config.json` when it exists */
  configFile?: string;
}

interface FileConfig {
  otlp?: { endpoint?: unknown; protocol?: unknown; headers?: unknown; content?: unknown };
}

/** `KEY=value,KEY2=value2` (OTEL_EXPORTER_OTLP_HEADERS: values are URL-encoded) or repeated `--otlp-header K=V`. */
export function parseHeaders(items: string[], what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf('=');
    if (at <= 0) throw new UsageError(`${what}: "${item}" is not KEY=value`);
    out[item.slice(0, at).trim()] = decodeURIComponent(item.slice(at + 1).trim());
  }
  return out;
}

/**
 * A base endpoint (OTEL_EXPORTER_OTLP_ENDPOINT, or a URL with no path) gets the signal path `/v1/traces`, as the
 * OTLP exporter specification says; a URL with a path is used as it is (Langfuse: /api/public/otel/v1/traces).
 */
export function tracesUrl(url: string, isBase: boolean): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`--otlp-endpoint: "${url}" is not a URL (try http://localhost:4318)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--otlp-endpoint: only http:// and https:// are supported, not ${u.protocol}`);
  if (isBase || u.pathname === '/' || u.pathname === '') return `${url.replace(/\/+$/, '')}/v1/traces`;
  return url;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : Array.isArray(v) && typeof v[v.length - 1] === 'string' ? String(v[v.length - 1]) : undefined;
}

/**
 * Flags first, then the OTEL_EXPORTER_OTLP_* variables OTel users already set, then the config file. null when
 * no endpoint is named anywhere: forwarding is off.
 */
export function resolveForwardConfig(s: Sources): ForwardConfig | null {
  const file = s.configFile ?? path.join(defaultStateDir(process.platform, s.env), 'config.json');
  let fc: FileConfig['otlp'] = {};
  if (fs.existsSync(file)) {
    try {
      fc = (JSON.parse(fs.readFileSync(file, 'utf8')) as FileConfig).otlp ?? {};
    } catch (err) {
      throw new UsageError(`${file}: not valid JSON (${(err as Error).message})`);
    }
  } else if (s.configFile) throw new UsageError(`--config ${s.configFile}: no such file`);
  const flagEndpoint = str(s.flags['otlp-endpoint']);
  const envTraces = str(s.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const envBase = str(s.env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const fileEndpoint = str(fc.endpoint);
  const endpoint = flagEndpoint ? tracesUrl(flagEndpoint, false) : envTraces ? tracesUrl(envTraces, false) : envBase ? tracesUrl(envBase, true) : fileEndpoint ? tracesUrl(fileEndpoint, false) : null;
  if (endpoint === null) return null;
  const protocol = str(s.flags['otlp-protocol']) ?? str(s.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? str(s.env.OTEL_EXPORTER_OTLP_PROTOCOL) ?? str(fc.protocol) ?? 'http/protobuf';
  if (protocol === 'grpc') throw new UsageError('--otlp-protocol grpc is not supported: use http/protobuf (port 4318 on a collector)');
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') throw new UsageError(`--otlp-protocol is http/protobuf or http/json, not "${protocol}"`);
  const headerFlags = s.flags['otlp-header'];
  const headers = {
    ...(fc.headers && typeof fc.headers === 'object' ? (fc.headers as Record<string, string>) : {}),
    ...parseHeaders((str(s.env.OTEL_EXPORTER_OTLP_HEADERS) ?? '').split(',').filter((x) => x.trim()), 'OTEL_EXPORTER_OTLP_HEADERS'),
    ...parseHeaders((str(s.env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) ?? '').split(',').filter((x) => x.trim()), 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'),
    ...parseHeaders(Array.isArray(headerFlags) ? headerFlags.map(String) : typeof headerFlags === 'string' ? [headerFlags] : [], '--otlp-header'),
  };
  const content = s.flags['otlp-content'] === true || fc.content === true;
  return { endpoint, protocol, headers, content };
}
