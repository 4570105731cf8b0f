import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors.js';
import { assertRedirectUris, CLIENT_REDIRECTS, redirectUriProblem, WEB_REDIRECTS } from './redirect-uris.js';

describe('exact redirect allow-lists', () => {
  const refusedEverywhere = [
    'https://*.example.com/',
    'https://%2A.example.com/cb',
    'https://app.example.com/cb/*',
    'https://user:pw@app.example.com/cb',
    'https://user@app.example.com/',
    'https://app.example.com/cb#frag',
    'https://app.example.com/cb#',
    'javascript:alert(1)',
    'data:text/html,x',
    '/relative',
    'not a url',
  ];

  it.each(refusedEverywhere)('refuses %s for flows and for OAuth clients', (value) => {
    expect(redirectUriProblem(value, WEB_REDIRECTS)).toBeTypeOf('string');
    expect(redirectUriProblem(value, CLIENT_REDIRECTS)).toBeTypeOf('string');
  });

  it('accepts exact http(s) URLs; private-use schemes only for clients; plain http on other hosts only for flows', () => {
    for (const value of ['https://app.example.com/cb', 'https://app.example.com/cb?x=1', 'http://localhost:3000/cb', 'http://127.0.0.1:9/callback']) {
      expect(redirectUriProblem(value, WEB_REDIRECTS), value).toBeUndefined();
      expect(redirectUriProblem(value, CLIENT_REDIRECTS), value).toBeUndefined();
    }
    expect(redirectUriProblem('com.example.app:/cb', CLIENT_REDIRECTS)).toBeUndefined();
    expect(redirectUriProblem('com.example.app:/cb', WEB_REDIRECTS)).toBeTypeOf('string');
    expect(redirectUriProblem('http://app.example.com/cb', WEB_REDIRECTS)).toBeUndefined();
    expect(redirectUriProblem('http://app.example.com/cb', CLIENT_REDIRECTS)).toBeTypeOf('string');
  });

  it('throws req.invalid naming each refused entry', () => {
    let thrown: unknown;
    try {
      assertRedirectUris(['https://ok.example/cb', 'https://*.example.com/'], 'body/redirect_uris', WEB_REDIRECTS);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ code: 'req.invalid', status: 400, details: { errors: [{ path: 'body/redirect_uris/1' }] } });
    expect(() => assertRedirectUris(undefined, 'body/redirect_uris', WEB_REDIRECTS)).not.toThrow();
  });
});
