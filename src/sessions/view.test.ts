import { describe, expect, it } from 'vitest';
import { AAL1 } from './levels.js';
import { DEFAULT_SESSION_SETTINGS } from './settings.js';
import type { SessionRow } from './store.js';
import { toSession, toSessionListItem } from './view.js';

const now = new Date('2030-01-02T00:00:00.000Z');

function row(overrides: Partial<SessionRow> = {}): SessionRow {
  return {
    id: 'sess_1',
    project_id: 'proj_1',
    state: 'active',
    user_id: 'usr_1',
    lifecycle_owner_team_id: null,
    factors: [{ method: 'password', verified_at: '2030-01-01T23:00:00.000Z', payload: { user_id: 'usr_1' } }],
    metadata: { plan: 'pro' },
    user_agent: { ip: '192.0.2.1' },
    token_hash: 'a'.repeat(64),
    created_at: new Date('2030-01-01T23:00:00.000Z'),
    updated_at: new Date('2030-01-01T23:00:00.000Z'),
    expires_at: new Date('2030-01-03T00:00:00.000Z'),
    ...overrides,
  };
}

describe('session view', () => {
  it('renders the interface fields, leaving out what is unknown', () => {
    expect(toSession(row(), DEFAULT_SESSION_SETTINGS, now, { name: 'Ada', email: 'ada@example.com' })).toEqual({
      session_id: 'sess_1',
      project_id: 'proj_1',
      state: 'active',
      user_id: 'usr_1',
      name: 'Ada',
      email: 'ada@example.com',
      factors: row().factors,
      assurance_levels: [AAL1],
      metadata: { plan: 'pro' },
      user_agent: { ip: '192.0.2.1' },
      created_at: '2030-01-01T23:00:00.000Z',
      expires_at: '2030-01-03T00:00:00.000Z',
    });
    const shell = toSession(row({ user_id: null, state: 'building', factors: [] }), DEFAULT_SESSION_SETTINGS, now, undefined);
    expect(shell).not.toHaveProperty('user_id');
    expect(shell).not.toHaveProperty('name');
    expect(shell).not.toHaveProperty('email');
    expect(toSession(row(), DEFAULT_SESSION_SETTINGS, now, { email: 'ada@example.com' })).not.toHaveProperty('name');
    expect(toSessionListItem(row(), DEFAULT_SESSION_SETTINGS, now)).not.toHaveProperty('email');
  });

  it('an expired row is expired and satisfies no level', () => {
    const expired = toSession(row({ expires_at: now }), DEFAULT_SESSION_SETTINGS, now, undefined);
    expect(expired.state).toBe('expired');
    expect(expired.assurance_levels).toEqual([]);
  });

  it('renders a date again once the Date object holds another time (the remembered text is per time, not per object)', () => {
    const rendered = row();
    expect(toSession(rendered, DEFAULT_SESSION_SETTINGS, now, undefined).expires_at).toBe('2030-01-03T00:00:00.000Z');
    rendered.expires_at.setTime(Date.parse('2030-01-04T00:00:00.000Z'));
    expect(toSession(rendered, DEFAULT_SESSION_SETTINGS, now, undefined).expires_at).toBe('2030-01-04T00:00:00.000Z');
  });
});
