import { describe, expect, it } from 'vitest';
import { isRegistrableSuffix, relyingParty } from './relying-party.js';

describe('relying party from Origin', () => {
  const options = { publicUrl: 'https://auth.example.com/base', allowedOrigins: ['https://preview.example.org', 'not a url'] };

  it("accepts Gatehouse's public origin and the project's preview origins, RP ID = hostname", () => {
    expect(relyingParty('https://auth.example.com', options)).toEqual({ rpId: 'auth.example.com', origin: 'https://auth.example.com' });
    expect(relyingParty('https://preview.example.org', options)).toEqual({ rpId: 'preview.example.org', origin: 'https://preview.example.org' });
    expect(relyingParty('http://localhost:4455', { publicUrl: 'http://localhost:4455', allowedOrigins: [] })).toEqual({ rpId: 'localhost', origin: 'http://localhost:4455' });
  });

  it.each([undefined, '', 'null', 'https://evil.example', 'https://auth.example.com.evil.test', 'http://auth.example.com', 'https://auth.example.com:8443', 'garbage'])(
    'refuses Origin %s with 403 auth.csrf_invalid',
    (origin) => {
      expect(() => relyingParty(origin, options)).toThrow(expect.objectContaining({ code: 'auth.csrf_invalid', status: 403 }));
    },
  );

  it('uses a configured rp_id only when it is a registrable suffix of the hostname', () => {
    expect(relyingParty('https://auth.example.com', { ...options, rpId: 'example.com' })).toEqual({ rpId: 'example.com', origin: 'https://auth.example.com' });
    expect(relyingParty('https://auth.example.com', { ...options, rpId: 'auth.example.com' }).rpId).toBe('auth.example.com');
    for (const rpId of ['com', 'other.com', 'xample.com', '.example.com', 'sub.auth.example.com']) {
      expect(() => relyingParty('https://auth.example.com', { ...options, rpId })).toThrow(expect.objectContaining({ code: 'auth.csrf_invalid' }));
    }
  });

  it('knows localhost and dotted suffixes only', () => {
    expect(isRegistrableSuffix('localhost', 'app.localhost')).toBe(true);
    expect(isRegistrableSuffix('localhost', 'localhost')).toBe(true);
    expect(isRegistrableSuffix('org', 'example.org')).toBe(false);
    expect(isRegistrableSuffix('Example.COM', 'a.example.com')).toBe(true);
    expect(isRegistrableSuffix('', 'example.com')).toBe(false);
  });
});
