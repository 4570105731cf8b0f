import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';

const base = { GATEHOUSE_ADMIN_TOKEN: 'gh_admin_0123456789abcdef01234567', GATEHOUSE_SECRET: 'x'.repeat(40) };

describe('remote schema configuration', () => {
  it('is off unless an allow-list is given', () => {
    expect(loadConfig(base).schemaFetch).toEqual({ allow: [], timeoutMs: 3000, maxBytes: 262_144 });
  });

  it('reads prefixes, timeout and size, ending every prefix at a path boundary', () => {
    const config = loadConfig({
      ...base,
      GATEHOUSE_SCHEMA_FETCH_ALLOW: 'https://schemas.example.com, https://cdn.example.org/gatehouse/',
      GATEHOUSE_SCHEMA_FETCH_TIMEOUT_MS: '500',
      GATEHOUSE_SCHEMA_FETCH_MAX_BYTES: '2048',
    });
    expect(config.schemaFetch).toEqual({
      allow: ['https://schemas.example.com/', 'https://cdn.example.org/gatehouse/'],
      timeoutMs: 500,
      maxBytes: 2048,
    });
  });

  it('stops start-up with a line naming the variable', () => {
    for (const [name, value] of [
      ['GATEHOUSE_SCHEMA_FETCH_ALLOW', 'ftp://example.com/'],
      ['GATEHOUSE_SCHEMA_FETCH_ALLOW', 'not a url'],
      ['GATEHOUSE_SCHEMA_FETCH_TIMEOUT_MS', 'soon'],
      ['GATEHOUSE_SCHEMA_FETCH_TIMEOUT_MS', '999999'],
      ['GATEHOUSE_SCHEMA_FETCH_MAX_BYTES', '10'],
    ]) {
      expect(() => loadConfig({ ...base, [name]: value })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, [name]: value })).toThrow(new RegExp(`^${name}:`));
    }
  });
});
