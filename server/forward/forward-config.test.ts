import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveForwardConfig } from './forward-config';

const none = path.join(os.tmpdir(), 'chronoscope-no-such-config.json');

describe('resolveForwardConfig', () => {
  it('off when no endpoint is named anywhere', () => {
    expect(resolveForwardConfig({ flags: {}, env: { XDG_STATE_HOME: os.tmpdir() + '/nothing-here' } })).toBeNull();
  });

  it('flags: the URL as given (a path is kept), protobuf by default, repeated headers, content off', () => {
    expect(resolveForwardConfig({ flags: { 'otlp-endpoint': 'https://cloud.langfuse.com/api/public/otel/v1/traces', 'otlp-header': ['Authorization=Basic abc', 'x-langfuse-ingestion-version=4'] }, env: {} })).toEqual({
      endpoint: 'https://cloud.langfuse.com/api/public/otel/v1/traces',
      protocol: 'http/protobuf',
      headers: { Authorization: 'Basic abc', 'x-langfuse-ingestion-version': '4' },
      content: false,
    });
    expect(resolveForwardConfig({ flags: { 'otlp-endpoint': 'http://localhost:4318', 'otlp-content': true, 'otlp-protocol': 'http/json' }, env: {} })).toMatchObject({
      endpoint: 'http://localhost:4318/v1/traces',
      protocol: 'http/json',
      content: true,
    });
  });

  it('OTEL_EXPORTER_OTLP_* as OTel users set them: a base endpoint gets /v1/traces, the traces one is used as is', () => {
    expect(resolveForwardConfig({ flags: {}, env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/otlp', OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%20b,x=1', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } })).toEqual({
      endpoint: 'http://collector:4318/otlp/v1/traces',
      protocol: 'http/json',
      headers: { 'api-key': 'a b', x: '1' },
      content: false,
    });
    expect(resolveForwardConfig({ flags: {}, env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:1' } })?.endpoint).toBe('http://c:4318/custom');
  });

  it('a config file, below flags and the environment', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-cfg-')), 'config.json');
    fs.writeFileSync(file, JSON.stringify({ otlp: { endpoint: 'http://from-file:4318/v1/traces', headers: { a: '1' }, content: true } }));
    expect(resolveForwardConfig({ flags: {}, env: {}, configFile: file })).toEqual({ endpoint: 'http://from-file:4318/v1/traces', protocol: 'http/protobuf', headers: { a: '1' }, content: true });
    expect(resolveForwardConfig({ flags: { 'otlp-endpoint': 'http://flag:4318/v1/traces' }, env: {}, configFile: file })?.endpoint).toBe('http://flag:4318/v1/traces');
  });

  it('says what to fix', () => {
    expect(() => resolveForwardConfig({ flags: { 'otlp-endpoint': 'nope' }, env: {} })).toThrow('--otlp-endpoint: "nope" is not a URL (try http://localhost:4318)');
    expect(() => resolveForwardConfig({ flags: { 'otlp-endpoint': 'http://x:4317', 'otlp-protocol': 'grpc' }, env: {} })).toThrow('--otlp-protocol grpc is not supported: use http/protobuf (port 4318 on a collector)');
    expect(() => resolveForwardConfig({ flags: { 'otlp-endpoint': 'http://x', 'otlp-header': ['novalue'] }, env: {} })).toThrow('--otlp-header: "novalue" is not KEY=value');
    expect(() => resolveForwardConfig({ flags: {}, env: {}, configFile: none })).toThrow(`--config ${none}: no such file`);
  });
});
