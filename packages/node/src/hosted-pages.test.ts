import { describe, expect, it } from 'vitest';
import { Gatehouse } from './gatehouse.js';
import { hostedPageUrl, stepUpUrl } from './hosted-pages.js';
import type { Denied } from './middleware.js';

const gatehouse = new Gatehouse({ baseUrl: 'https://id.example.com/', projectId: 'proj_1' });
const denied = (status: 401 | 403, details: Record<string, unknown> = {}): Denied => ({ ok: false, status, headers: {}, body: { code: 'auth.forbidden', message: 'no', details } });

describe('hosted page addresses', () => {
  it('names the project and the parameters given, on the base URL', () => {
    expect(hostedPageUrl(gatehouse, 'register', { redirect_uri: 'https://shop.example.com/cb', lang: undefined })).toBe(
      'https://id.example.com/ui/register?project_id=proj_1&redirect_uri=https%3A%2F%2Fshop.example.com%2Fcb',
    );
  });

  it('steps up the refused session, telling the page the missing level', () => {
    const url = new URL(stepUpUrl(gatehouse, denied(403, { session_id: 'sess_1', required_assurance_level: 'urn:nist:aal:2' }), 'https://shop.example.com/cb')!);
    expect(url.origin + url.pathname).toBe('https://id.example.com/ui/login');
    expect(Object.fromEntries(url.searchParams)).toEqual({ project_id: 'proj_1', session_id: 'sess_1', aal: '2', redirect_uri: 'https://shop.example.com/cb' });
  });

  it('has no step-up for a refusal without a session, and no `aal` for a level it does not know', () => {
    expect(stepUpUrl(gatehouse, denied(401), 'https://shop.example.com/cb')).toBeUndefined();
    const odd = new URL(stepUpUrl(gatehouse, denied(403, { session_id: 'sess_1', required_assurance_level: 'urn:nist:aal:3' }), 'https://shop.example.com/cb')!);
    expect(odd.searchParams.has('aal')).toBe(false);
  });
});
