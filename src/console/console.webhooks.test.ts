import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../packages/node/src/webhook.js';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngineKind } from '../../test/helpers/engine.js';
import { receiver } from '../webhooks/webhooks-test-kit.js';
import { consoleBrowser, type ConsoleBrowser } from './console-test-kit.js';

const ORIGIN = 'http://localhost';

/**
 * The console's webhooks pages (DESIGN §4.21), end to end through `/projects/{id}/webhooks`, with a
 * real receiver on loopback (GATEHOUSE_OUTBOUND_ALLOW_PRIVATE) and the delivery worker drained by hand.
 */
describe(`console: webhooks with deliveries (${testEngineKind()})`, () => {
  let t: TestApp;
  let admin: ConsoleBrowser;
  let shop: Awaited<ReturnType<TestApp['createProject']>>;
  let other: Awaited<ReturnType<TestApp['createProject']>>;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let webhookId: string;
  let secret: string;
  const page = () => `/console/projects/${shop.id}/webhooks`;
  const api = (method: 'GET' | 'POST', url: string, project = shop, payload?: object) => t.app.inject({ method, url, headers: bearer(project.project_secret), ...(payload ? { payload } : {}) });
  const stored = async (id = webhookId, project = shop) => api('GET', `/projects/${project.id}/webhooks/${id}`, project);
  const deliveries = async (id = webhookId) => (await api('GET', `/projects/${shop.id}/webhooks/${id}/deliveries?limit=100`)).json().deliveries as Array<Record<string, unknown>>;
  const makeTeam = async (name: string, project = shop) => expect((await api('POST', `/teams?project_id=${project.id}`, project, { name })).statusCode).toBe(201);
  const drain = () => t.container.webhooks.worker.drain();

  beforeAll(async () => {
    t = await createTestApp({ publicUrl: ORIGIN, outboundAllowPrivate: true });
    admin = await consoleBrowser(t, [{ role: 'instance_admin' }], ORIGIN);
    shop = await t.createProject('Shop');
    other = await t.createProject('Other');
    hook = await receiver();
  });
  afterAll(async () => {
    await hook?.close();
    await t?.close();
  });

  it('adds an endpoint: the API\'s refusals at the form as typed (unknown types listed), then the secret shown once and never again', async () => {
    const empty = await admin.get(page());
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('No webhook endpoint yet.');
    expect((await admin.get(`/console/projects/${shop.id}`)).body).toContain(`href="${page()}"`);

    const badUrl = await admin.post(page(), { url: 'ftp://example.com/hooks', events: 'team.created', description: 'Shop sync' });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.body).toContain('role="alert"');
    expect(badUrl.body).toContain('<code>body/url</code>');
    expect(badUrl.body).toMatch(/name="url" value="ftp:\/\/example.com\/hooks" type="url" required maxlength="2048" autocomplete="off" aria-invalid="true"/);
    expect(badUrl.body).toContain('value="Shop sync"');

    const unknown = await admin.post(page(), { url: hook.url, events: 'team.created, user.nope', description: '' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('unknown event type &quot;user.nope&quot;');
    expect(unknown.body).toContain('The event types:');
    expect(unknown.body).toContain('<code>user.created</code>');
    expect(unknown.body).toMatch(/name="events" value="team.created, user.nope" required[^>]*aria-invalid="true"/);
    const none = await admin.post(page(), { url: hook.url, events: ' , ' });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('<code>body/events</code>');
    expect((await api('GET', `/projects/${shop.id}/webhooks`)).json().webhooks).toEqual([]);

    const created = await admin.post(page(), { url: hook.url, events: 'team.created,  team.deleted', description: 'Shop sync' });
    expect(created.statusCode, created.body.slice(0, 800)).toBe(201);
    secret = /whsec_[A-Za-z0-9+/=]+/.exec(created.body)?.[0] ?? '';
    expect(secret).not.toBe('');
    expect(created.body).toContain('it is shown only this once');
    const [listed] = (await api('GET', `/projects/${shop.id}/webhooks`)).json().webhooks;
    webhookId = listed.id;
    expect(listed).toMatchObject({ url: hook.url, events: ['team.created', 'team.deleted'], description: 'Shop sync', enabled: true });
    expect(created.body).toContain(`href="${page()}/${webhookId}"`);

    // Neither the list nor the endpoint's page shows a secret again.
    const list = await admin.get(page());
    expect(list.body).toContain(`<a href="${page()}/${webhookId}"><code>${hook.url}</code></a>`);
    expect(list.body).toContain('<code>team.deleted</code>');
    expect(list.body).not.toContain('whsec_');
    const one = await admin.get(`${page()}/${webhookId}`);
    expect(one.statusCode).toBe(200);
    expect(one.body).not.toContain('whsec_');
    expect(one.body).toContain('No delivery yet.');
    expect(one.body).toContain('value="team.created, team.deleted"');

    // The secret shown is the one that signs the deliveries.
    await makeTeam('Signed');
    expect(await drain()).toBe(1);
    expect(hook.received).toHaveLength(1);
    expect(verifyWebhook(secret, hook.received[0].headers as Record<string, string>, hook.received[0].body).type).toBe('team.created');
  });

  it('shows the delivery log with the event linked to the event log, and sends a delivery again', async () => {
    const one = await admin.get(`${page()}/${webhookId}`);
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 200, event_type: 'team.created' });
    expect(one.body).toContain(`<code>${delivery.id}</code>`);
    expect(one.body).toContain('delivered');
    expect(one.body).toContain('<code>200</code>');
    // The event's link filters the log to its type and its millisecond: that event, in full.
    const link = /<a href="([^"]*\/events\?type=team.created[^"]*)"><code>team.created<\/code><\/a>/.exec(one.body)?.[1];
    expect(link).toBeDefined();
    const log = await admin.get(link!.replace(/&amp;/g, '&'));
    expect(log.statusCode).toBe(200);
    expect(log.body.match(/<tr class="event">/g)).toHaveLength(1);
    expect(log.body).toContain(String(delivery.event_id));

    const redeliver = await admin.post(`${page()}/${webhookId}/deliveries/${delivery.id}/redeliver`);
    expect(redeliver.statusCode).toBe(303);
    expect(redeliver.headers.location).toBe(`${page()}/${webhookId}?notice=redelivered`);
    expect((await deliveries())[0]).toMatchObject({ id: delivery.id, status: 'pending', attempts: 0 });
    expect((await admin.get(String(redeliver.headers.location))).body).toContain('The delivery is being sent again.');
    expect(await drain()).toBe(1);
    expect(hook.received).toHaveLength(2);
    // The same webhook-id: the receiver de-duplicates by it.
    expect(hook.received[1].headers['webhook-id']).toBe(delivery.id);
    expect((await deliveries())[0]).toMatchObject({ id: delivery.id, status: 'delivered', attempts: 1 });
    expect((await admin.post(`${page()}/${webhookId}/deliveries/msg_nope/redeliver`)).statusCode).toBe(404);
  });

  it('pages the delivery log by the API\'s cursor', async () => {
    for (let i = 0; i < 20; i++) await makeTeam(`Team ${i}`);
    await drain();
    expect(await deliveries()).toHaveLength(21);
    const first = await admin.get(`${page()}/${webhookId}`);
    expect(first.body.match(/>Send again</g)).toHaveLength(20);
    const older = /<a class="btn secondary" rel="next" href="([^"]+)">Older deliveries<\/a>/.exec(first.body)?.[1];
    expect(older).toBeDefined();
    const second = await admin.get(older!.replace(/&amp;/g, '&'));
    expect(second.statusCode).toBe(200);
    expect(second.body.match(/>Send again</g)).toHaveLength(1);
    expect(second.body).toContain('Back to the newest deliveries');
    expect(second.body).not.toContain('Older deliveries');
    // The oldest delivery is the first one, on the second page.
    expect(second.body).toContain(`<code>${(await deliveries()).at(-1)!.id}</code>`);
  });

  it('changes the settings (a refusal at the form), disables and enables, rotates the secret with the confirmation', async () => {
    const one = `${page()}/${webhookId}`;
    const refused = await admin.post(one, { url: 'https://user:pw@example.com/h', events: 'team.created', description: '' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('<code>body/url</code>');
    expect(refused.body).toContain('value="https://user:pw@example.com/h"');
    expect((await stored()).json().url).toBe(hook.url);

    const saved = await admin.post(one, { url: hook.url, events: 'team.created', description: '' });
    expect(saved.headers.location).toBe(`${one}?notice=saved`);
    const changed = (await stored()).json();
    expect(changed).toMatchObject({ events: ['team.created'], enabled: true });
    expect(changed).not.toHaveProperty('description');

    const disabled = await admin.post(`${one}/enabled`, { enabled: 'no' });
    expect(disabled.headers.location).toBe(`${one}?notice=disabled`);
    expect((await stored()).json().enabled).toBe(false);
    const shown = await admin.get(String(disabled.headers.location));
    expect(shown.body).toContain('Disabled since');
    expect(shown.body).toContain('>Enable</button>');
    const before = hook.received.length;
    await makeTeam('While disabled');
    await drain();
    expect(hook.received).toHaveLength(before);
    const enabled = await admin.post(`${one}/enabled`, { enabled: 'yes' });
    expect(enabled.headers.location).toBe(`${one}?notice=enabled`);
    expect((await stored()).json().enabled).toBe(true);

    const unconfirmed = await admin.post(`${one}/rotate_secret`, {});
    expect(unconfirmed.headers.location).toBe(`${one}?notice=rotate_not_confirmed`);
    const rotated = await admin.post(`${one}/rotate_secret`, { confirm: 'yes' });
    expect(rotated.statusCode).toBe(200);
    const fresh = /whsec_[A-Za-z0-9+/=]+/.exec(rotated.body)?.[0];
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(secret);
    expect(rotated.body).toContain('The previous secret also signs every delivery until');
    expect((await admin.get(one)).body).not.toContain('whsec_');
    await makeTeam('Rotated');
    await drain();
    const last = hook.received.at(-1)!;
    expect(verifyWebhook(fresh!, last.headers as Record<string, string>, last.body).type).toBe('team.created');

    // Each change is an operator's event in the project's log, its subject linking to the endpoint.
    const events = await admin.get(`/console/projects/${shop.id}/events?subject_id=${webhookId}`);
    for (const type of ['webhook.created', 'webhook.updated', 'webhook.secret_rotated']) expect(events.body).toContain(`<code>${type}</code>`);
    expect(events.body).toContain(`<code>operator</code><br><code>${admin.userId}</code>`);
    expect(events.body).toContain(`<a href="${page()}/${webhookId}"><code>${webhookId}</code></a>`);
  });

  it('refuses cross-site posts, and deletes only with the confirmation ticked', async () => {
    const one = `${page()}/${webhookId}`;
    const crossSite = (url: string, payload: string) => t.app.inject({ method: 'POST', url, headers: { cookie: admin.cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, payload });
    const count = (await deliveries()).length;
    for (const [url, payload] of [
      [page(), `url=${encodeURIComponent(hook.url)}&events=*`],
      [one, `url=${encodeURIComponent('https://evil.example/h')}&events=*`],
      [`${one}/enabled`, 'enabled=no'],
      [`${one}/rotate_secret`, 'confirm=yes'],
      [`${one}/delete`, 'confirm=yes'],
      [`${one}/deliveries/${(await deliveries())[0].id}/redeliver`, ''],
    ]) {
      expect((await crossSite(url, payload)).statusCode, url).toBe(403);
    }
    expect((await api('GET', `/projects/${shop.id}/webhooks`)).json().webhooks).toHaveLength(1);
    expect((await stored()).json()).toMatchObject({ url: hook.url, enabled: true });
    expect((await deliveries()).filter((d) => d.status === 'pending')).toHaveLength(0);
    expect(await deliveries()).toHaveLength(count);
    const rotations = await api('GET', `/events?project_id=${shop.id}&type=webhook.secret_rotated`);
    expect(rotations.json().events).toHaveLength(1);

    const unconfirmed = await admin.post(`${one}/delete`, {});
    expect(unconfirmed.headers.location).toBe(`${one}?notice=not_confirmed`);
    expect((await stored()).statusCode).toBe(200);
    const deleted = await admin.post(`${one}/delete`, { confirm: 'yes' });
    expect(deleted.headers.location).toBe(`${page()}?notice=deleted`);
    expect((await stored()).statusCode).toBe(404);
    expect((await admin.get(String(deleted.headers.location))).body).toContain('Deleted.');
    expect((await admin.get(one)).statusCode).toBe(404);
    expect((await admin.post(`${one}/delete`, { confirm: 'yes' })).statusCode).toBe(404);
    expect((await api('GET', `/events?project_id=${shop.id}&type=webhook.deleted`)).json().events[0]).toMatchObject({ actor: { kind: 'operator', id: admin.userId }, subject: { kind: 'webhook', id: webhookId } });
  });

  it('keeps projects apart: another project\'s endpoint is a 404 on every page and form, and for a project admin of another project', async () => {
    const theirs = await api('POST', `/projects/${other.id}/webhooks`, other, { url: hook.url, events: ['team.created'] });
    expect(theirs.statusCode).toBe(201);
    const id = theirs.json().id as string;
    await makeTeam('Theirs', other);
    await drain();
    const [delivery] = (await api('GET', `/projects/${other.id}/webhooks/${id}/deliveries`, other)).json().deliveries;
    const form = { url: 'https://mine.example/h', events: '*', description: '' };

    const tryAll = async (browser: ConsoleBrowser, base: string) => {
      const one = `${base}/${id}`;
      expect((await browser.get(one)).statusCode, one).toBe(404);
      expect((await browser.get(`${one}?page_token=x`)).statusCode).toBe(404);
      expect((await browser.post(one, form)).statusCode).toBe(404);
      expect((await browser.post(one, { ...form, url: 'ftp://x' })).statusCode).toBe(404);
      expect((await browser.post(`${one}/enabled`, { enabled: 'no' })).statusCode).toBe(404);
      expect((await browser.post(`${one}/rotate_secret`, {})).statusCode).toBe(404);
      expect((await browser.post(`${one}/rotate_secret`, { confirm: 'yes' })).statusCode).toBe(404);
      expect((await browser.post(`${one}/delete`, {})).statusCode).toBe(404);
      expect((await browser.post(`${one}/delete`, { confirm: 'yes' })).statusCode).toBe(404);
      expect((await browser.post(`${one}/deliveries/${delivery.id}/redeliver`)).statusCode).toBe(404);
    };
    await tryAll(admin, page());

    const pat = await consoleBrowser(t, [{ role: 'project_admin', projectId: shop.id }], ORIGIN);
    expect((await pat.get(page())).statusCode).toBe(200);
    await tryAll(pat, page());
    const theirPage = `/console/projects/${other.id}/webhooks`;
    expect((await pat.get(theirPage)).statusCode).toBe(404);
    expect((await pat.post(theirPage, form)).statusCode).toBe(404);
    await tryAll(pat, theirPage);

    // Nothing changed: the same endpoint, its secret, its one delivered delivery.
    expect((await stored(id, other)).json()).toMatchObject({ url: hook.url, events: ['team.created'], enabled: true });
    expect((await api('GET', `/projects/${other.id}/webhooks/${id}/deliveries`, other)).json().deliveries).toMatchObject([{ id: delivery.id, status: 'delivered' }]);
    expect((await api('GET', `/events?project_id=${other.id}&type=webhook.updated,webhook.deleted,webhook.secret_rotated`, other)).json().events).toEqual([]);
    expect((await api('GET', `/projects/${shop.id}/webhooks`)).json().webhooks).toEqual([]);
  });

  it('speaks German', async () => {
    const created = await admin.post(`${page()}?lang=de`, { url: hook.url, events: '*' });
    expect(created.statusCode).toBe(201);
    expect(created.body).toContain('Kopieren Sie das Signaturgeheimnis jetzt');
    const list = await admin.get(`${page()}?lang=de`);
    expect(list.body).toContain('<h1>Webhooks</h1>');
    expect(list.body).toContain(`action="${page()}?lang=de"`);
    const [webhook] = (await api('GET', `/projects/${shop.id}/webhooks`)).json().webhooks;
    // Subscribed to every type, it gets its own webhook.created: a pending delivery.
    const one = (await admin.get(`${page()}/${webhook.id}?lang=de`)).body;
    expect(one).toContain('<h2>Zustellungen</h2>');
    expect(one).toContain('<td>ausstehend</td>');
  });
});
