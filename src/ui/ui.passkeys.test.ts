import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SoftwareAuthenticator } from '../../test/helpers/webauthn-authenticator.js';
import { ORIGIN, passkeyFlowKit, type PasskeyFlowKit } from '../flows/methods/passkey/passkey-flow-test-kit.js';
import { formAction, PageClient } from './page-test-kit.js';

const challengeOf = (html: string) => JSON.parse(/<script type="application\/json" id="gh-challenge">([^<]*)<\/script>/.exec(html)![1]);

/** The challenge a page shows must be the one its `_zflow` holds, also on a page re-rendered after an error. */
describe('hosted pages: passkey challenges stay in step with the cookie', () => {
  let kit: PasskeyFlowKit;
  let authenticator: SoftwareAuthenticator;

  beforeAll(async () => {
    kit = await passkeyFlowKit();
    authenticator = kit.authenticator();
    await kit.registerWithPasskey('page@example.com', authenticator);
  });
  afterAll(async () => kit.t.close());

  it('after a refused form the autofill challenge on the page still signs in', async () => {
    const client = new PageClient(kit.t);
    client.origin = ORIGIN;
    const page = await client.open(`/ui/login?project_id=${kit.projectId}`);
    expect(page.statusCode).toBe(200);
    const refused = await client.submit(page, 'continue', { email: 'not an address' });
    expect(refused.statusCode).toBe(400);
    const challenge = challengeOf(refused.body);
    expect(challenge.mediation).toBe('conditional');
    const proof = await authenticator.get(challenge.options, { origin: ORIGIN });
    const answered = await client.post(formAction(refused.body), {
      action: 'passkey',
      challenge_response: JSON.stringify({ challenge_id: challenge.challenge_id, method: challenge.method, proof }),
    });
    expect(answered.statusCode, answered.body.slice(0, 300)).toBe(303);
  });
});
