import { describe, expect, it } from 'vitest';
import { stepPage as page } from './page-test-kit.js';


describe('step markup (generic over any definition)', () => {
  it('renders passkey actions as submit buttons and the challenge as an inert JSON block that cannot close its element', () => {
    const html = page({
      fields: [{ name: 'email', type: 'email', text_key: 'field.email', required: true }],
      actions: [{ name: 'continue', kind: 'submit', text_key: 'action.continue', primary: true }, { name: 'passkey', kind: 'passkey', text_key: 'action.passkey', primary: false }],
      challenge: { challenge_id: 'ch_1', method: 'passkey', options: { challenge: '</script><script>alert(1)</script>' }, mediation: 'conditional' },
    });
    expect(html).toContain('<button type="submit" name="action" value="passkey" class="btn secondary" formnovalidate data-passkey="passkey">Sign in with a passkey</button>');
    expect(html).toContain('autocomplete="username webauthn"');
    expect(html).toContain('<input type="hidden" name="challenge_response" value="">');
    expect(html).toContain('<script type="application/json" id="gh-challenge">{"challenge_id":"ch_1","method":"passkey","options":{"challenge":"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"},"mediation":"conditional"}</script>');
    // Conditional UI is silent; an immediate ceremony tells a browser without JavaScript why nothing happens.
    expect(html).not.toContain('<noscript>');
    const immediate = page({ actions: [{ name: 'add', kind: 'passkey_register', text_key: 'action.passkey_register', primary: true }], challenge: { challenge_id: 'ch_2', method: 'passkey_register', options: {} } });
    expect(immediate).toContain('<noscript><p class="alert" role="alert">Passkeys need a browser with JavaScript enabled.</p></noscript>');
  });

  it('renders fields by type: checkbox, number, url, code; unknown keys read as their last segment', () => {
    const html = page({
      fields: [
        { name: 'terms', type: 'checkbox', text_key: 'field.terms', required: true },
        { name: 'age', type: 'number', text_key: 'field.age', required: false },
        { name: 'site', type: 'url', text_key: 'field.site', required: false },
        { name: 'code', type: 'code', text_key: 'field.code', required: true },
      ],
    }, { values: { terms: 'true', age: '42' } });
    expect(html).toContain('<input id="f-terms" name="f.terms" required autofocus type="checkbox" value="true" checked><label for="f-terms">terms</label>');
    expect(html).toContain('type="number" value="42"');
    expect(html).toContain('id="f-site" name="f.site" type="url"');
    expect(html).toContain('autocomplete="one-time-code" inputmode="numeric"');
  });

  it('shows the captcha gate with its challenge, TOTP as an image, recovery codes, and step.error as an alert', () => {
    const html = page({
      error: 'error.invalid',
      gates: { captcha: { kind: 'proof_of_work', provider: 'altcha', config: { algorithm: 'SHA-256', challenge: 'c', salt: 's', max_number: 10, signature: 'x', expires_at: 'e' } } },
      totp: { secret: 'JBSWY3DP', otpauth_uri: 'otpauth://totp/x', qr_svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>' },
      recovery_codes: ['aaaa-bbbb', '<b>'],
      warning: 'warning.recovery_codes_low',
    }, { errors: { captcha: 'error.captcha_invalid' } });
    expect(html).toContain('<div class="alert" role="alert"><p>This value is not valid.</p>');
    expect(html).toContain('<script type="application/json" id="gh-captcha">{"algorithm":"SHA-256"');
    expect(html).toContain('aria-describedby="f-captcha-hint f-captcha-error" aria-invalid="true" autofocus');
    expect(html).toMatch(/<img src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" alt="QR code for your authenticator app"/);
    expect(html).toContain('<li><code>&lt;b&gt;</code></li>');
    expect(html).toContain('<p class="warning" role="status">You have few recovery codes left.');
  });
});
