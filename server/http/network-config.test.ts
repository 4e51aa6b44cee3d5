import { describe, expect, it } from 'vitest';
import { isLoopbackHost, parseOptions, UsageError } from '../config';

// The --host / --token rules (hardening issue, item 2): loopback by default; anything else needs a token.
describe('--host and --token', () => {
  it('binds 127.0.0.1 by default, with no token', () => {
    const o = parseOptions(['serve']);
    expect(o.host).toBe('127.0.0.1');
    expect(o.token).toBe(null);
  });

  it('accepts the loopback names without a token', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', 'LOCALHOST']) {
      expect(parseOptions(['serve', '--host', host]).host).toBe(host);
      expect(isLoopbackHost(host)).toBe(true);
    }
  });

  it('refuses to start on a non-loopback host without --token, naming the problem', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'my-laptop.local', '127.0.0.2']) {
      expect(() => parseOptions(['serve', '--host', host]), host).toThrow(UsageError);
      expect(() => parseOptions(['serve', '--host', host])).toThrow(/not loopback.*without --token/);
    }
  });

  it('starts on a non-loopback host with a token of at least 16 characters', () => {
    const o = parseOptions(['serve', '--host', '0.0.0.0', '--token', 'a1b2c3d4e5f6a7b8']);
    expect(o.token).toBe('a1b2c3d4e5f6a7b8');
  });

  it('refuses a short or blank token, which could be guessed', () => {
    expect(() => parseOptions(['serve', '--host', '0.0.0.0', '--token', 'secret'])).toThrow(/at least 16 characters/);
    expect(() => parseOptions(['serve', '--token', ''])).toThrow(/at least 16 characters/);
    expect(() => parseOptions(['serve', '--token', 'sixteen chars pad'])).toThrow(/without spaces/);
  });

  it('takes the token from CHRONOSCOPE_TOKEN when no flag is given', () => {
    const saved = process.env.CHRONOSCOPE_TOKEN;
    process.env.CHRONOSCOPE_TOKEN = 'from-the-environment-1';
    try {
      expect(parseOptions(['serve', '--host', '0.0.0.0']).token).toBe('from-the-environment-1');
    } finally {
      if (saved === undefined) delete process.env.CHRONOSCOPE_TOKEN;
      else process.env.CHRONOSCOPE_TOKEN = saved;
    }
  });
});
