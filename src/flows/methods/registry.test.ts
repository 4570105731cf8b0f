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

  it('move the two SSO keys into one slot, each under its old name', () => {
    const started = { p: 'sso_a', st: 'state', n: 'nonce', v: 'verifier', b: 'hash', r: 'https://app.example/back', x: 1 };
    const identity = { p: 'sso_a', s: 'subject', n: 'Example (a@example.com)' };
    const frame = { id: 'flow_c', d: 'fdef_c', pu: 'login', s: 'identify', c: {}, h: [], so: started, si: identity };
    const state = { v: 1, flows: { flow_c: { p: 'proj_c', ss: 'sess_c', ex: 1, f: [frame, { id: 'flow_d', d: 'fdef_d', pu: 'login', s: 'identify', c: {}, h: [], si: identity }] } } } as unknown as FlowCookieState;
    upgradeFrames(state);
    expect(state.flows.flow_c.f[0]).toEqual({ id: 'flow_c', d: 'fdef_c', pu: 'login', s: 'identify', c: {}, h: [], m: { sso: { so: started, si: identity } } });
    expect(state.flows.flow_c.f[1]).toEqual({ id: 'flow_d', d: 'fdef_d', pu: 'login', s: 'identify', c: {}, h: [], m: { sso: { si: identity } } });
  });

  it('leave a frame without old keys as it is', () => {
    const frame = { id: 'flow_b', d: 'fdef_b', pu: 'login', s: 'identify', c: {}, h: [], m: { totp: 'SEED' } };
    const state = { v: 1, flows: { flow_b: { p: 'proj_b', ss: 'sess_b', ex: 1, f: [structuredClone(frame)] } } } as unknown as FlowCookieState;
    upgradeFrames(state);
    expect(state.flows.flow_b.f[0]).toEqual(frame);
  });
});
