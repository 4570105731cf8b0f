import { describe, expect, it } from 'vitest';
import { looksLikeId, randomIds } from './ids.js';

describe('ids', () => {
  it('are the prefix, an underscore and 26 unambiguous base32 characters', () => {
    for (const prefix of ['proj', 'team', 'usr', 'sess']) {
      const id = randomIds.next(prefix);
      expect(id).toMatch(new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{26}$`));
      expect(id.slice(prefix.length + 1)).not.toMatch(/[ilou]/);
    }
  });

  it('do not repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => randomIds.next('team')));
    expect(ids.size).toBe(10_000);
  });

  it('use the whole alphabet (no skew towards a few characters)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) for (const ch of randomIds.next('x').slice(2)) seen.add(ch);
    expect(seen.size).toBe(32);
  });

  it('are recognised by looksLikeId, optionally with their prefix', () => {
    const id = randomIds.next('team');
    expect(looksLikeId(id)).toBe(true);
    expect(looksLikeId(id, 'team')).toBe(true);
    expect(looksLikeId(id, 'usr')).toBe(false);
    for (const bad of ['', 'team', 'team_', 'TEAM_0123456789', 'team_short', 'team_0123456789-', `team_${'a'.repeat(41)}`, "team_0123456789' or 1=1", 'a_0123456789']) {
      expect(looksLikeId(bad), bad).toBe(false);
    }
  });
});
