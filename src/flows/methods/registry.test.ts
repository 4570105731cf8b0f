import { describe, expect, it } from 'vitest';
import type { FlowCookieState } from '../state.js';
import { upgradeFrames } from './registry.js';

describe('flow cookies written before method state had slots', () => {
  it('move each old frame key into the slot of every method that declares it, and nothing else', () => {
    const frame = { id: 'flow_a', d: 'fdef_a', pu: 'login', s: 'code', c: { email: 'a@example.com' }, h: [], u: 'usr_a', oc: 'code_a', ts: 'SEED', rc: 'cred_a', ch: { i: 'chal_a', m: 'passkey', c: 'challenge', x: 1, rp: 'localhost' } };
    const state = { v: 1, flows: { flow_a: { p: 'proj_a', ss: 'sess_a', ex: 1, f: [frame] } } } as unknown as FlowCookieState;
    upgradeFrames(state);
    expect(state.flows.flow_a.f[0]).toEqual({
      id: 'flow_a',
      d: 'fdef_a',
      pu: 'login',
      s: 'code',
      c: { email: 'a@example.com' },
      h: [],
      u: 'usr_a',
      // `oc` was shared by both code methods: each gets it.
      m: { otp: 'code_a', recovery_by_mail: 'code_a', totp: 'SEED', settings: 'cred_a', passkey: { i: 'chal_a', m: 'passkey', c: 'challenge', x: 1, rp: 'localhost' } },
    });
  });

  it('leave a frame without old keys as it is', () => {
    const frame = { id: 'flow_b', d: 'fdef_b', pu: 'login', s: 'identify', c: {}, h: [], m: { totp: 'SEED' } };
    const state = { v: 1, flows: { flow_b: { p: 'proj_b', ss: 'sess_b', ex: 1, f: [structuredClone(frame)] } } } as unknown as FlowCookieState;
    upgradeFrames(state);
    expect(state.flows.flow_b.f[0]).toEqual(frame);
  });
});
