import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngineKind } from '../../test/helpers/engine.js';
import { consoleBrowser, type ConsoleBrowser } from './console-test-kit.js';

const ORIGIN = 'http://localhost';

/** The types in an event table, top to bottom (each row's type cell links to the type's filter). */
const typesIn = (html: string) => [...html.matchAll(/<td><a href="[^"]*\/events\?type=[^"]*"><code>([a-z_.]+)<\/code><\/a><\/td>/g)].map((match) => match[1]);
/** The ids of the events in a table (from each event's JSON). */
const idsIn = (html: string) => [...html.matchAll(/&quot;id&quot;: &quot;(evt_[A-Za-z0-9]+)&quot;/g)].map((match) => match[1]);
/** An href as the page writes it, decoded. */
const hrefOf = (html: string, pattern: RegExp) => pattern.exec(html)?.[1]?.replace(/&amp;/g, '&');
/** A `datetime-local` value (UTC) for a moment. */
const local = (date: Date) => date.toISOString().slice(0, 16);

/** The console's event log and a user's events, end to end: real actions write the events, the page reads them through GET /events. */
describe(`console: the event log (${testEngineKind()})`, () => {
  let t: TestApp;
  let admin: ConsoleBrowser;
  let shop: Awaited<ReturnType<TestApp['createProject']>>;
  let other: Awaited<ReturnType<TestApp['createProject']>>;
  let sam: string;
  let bob: string;
  let stranger: string;
  const log = () => `/console/projects/${shop.id}/events`;

  const createUser = async (project: { id: string; project_secret: string }, email: string) => {
    const schema = (await t.container.schemas.defaultFor(project.id))!.uri;
    const created = await t.app.inject({ method: 'POST', url: '/users', headers: bearer(project.project_secret), payload: { schema, attributes: { email } } });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().id as string;
  };

  beforeAll(async () => {
    t = await createTestApp({ publicUrl: ORIGIN });
    admin = await consoleBrowser(t, [{ role: 'instance_admin' }], ORIGIN);
    shop = await t.createProject('Shop');
    other = await t.createProject('Other');
    // Real actions, a second apart: a user made with the project secret, an operator's team and unlock in the console.
    t.clock.advance(1000);
    sam = await createUser(shop, 'sam@example.com');
    t.clock.advance(1000);
    expect((await admin.post(`/console/projects/${shop.id}/teams`, { name: '<b>Support</b>' })).statusCode).toBe(303);
    t.clock.advance(1000);
    expect((await admin.post(`/console/projects/${shop.id}/users/${sam}/unlock`)).statusCode).toBe(303);
    t.clock.advance(1000);
    bob = await createUser(shop, 'bob@example.com');
    stranger = await createUser(other, 'stranger@example.com');
  });
  afterAll(async () => t.close());

  it('lists the events real actions wrote, newest first, each in full, linked from the project page', async () => {
    const project = await admin.get(`/console/projects/${shop.id}`);
    expect(project.body).toContain(`href="/console/projects/${shop.id}/events"`);
    expect(project.body).toContain(`href="/console/projects/${shop.id}/saml_providers"`);

    const page = await admin.get(log());
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toContain('no-store');
    expect(typesIn(page.body)).toEqual(['user.created', 'user.unlocked', 'team.created', 'user.created', 'project.created']);
    // The operator is the actor of the console's changes; the project secret of the API's.
    expect(page.body).toContain(`<code>operator</code><br><code>${admin.userId}</code>`);
    expect(page.body).toContain('<code>project_secret</code>');
    // A user subject links to the user's page; each event is there in full, as JSON, keyboard-reachable.
    expect(page.body).toContain(`<a href="/console/projects/${shop.id}/users/${sam}"><code>${sam}</code></a>`);
    expect(page.body).toContain('<details><summary>Details</summary><pre class="snippet" tabindex="0"><code>{');
    expect(page.body).toContain(`&quot;subject&quot;: {\n    &quot;kind&quot;: &quot;user&quot;,\n    &quot;id&quot;: &quot;${sam}&quot;`);
    // Data is text, never markup.
    expect(page.body).toContain('&lt;b&gt;Support&lt;/b&gt;');
    expect(page.body).not.toContain('<b>Support</b>');
    // Everything fits one page: no link to older events.
    expect(page.body).not.toContain('rel="next"');
  });

  it('filters by type, subject, actor and time, each as the API reads it', async () => {
    const filtered = async (query: Record<string, string>) => {
      const page = await admin.get(`${log()}?${new URLSearchParams(query)}`);
      expect(page.statusCode, page.body.slice(0, 500)).toBe(200);
      return page;
    };
    expect(typesIn((await filtered({ type: 'team.created' })).body)).toEqual(['team.created']);
    expect(typesIn((await filtered({ type: ' user.unlocked , team.created ' })).body)).toEqual(['user.unlocked', 'team.created']);
    const aboutSam = await filtered({ subject_id: sam });
    expect(typesIn(aboutSam.body)).toEqual(['user.unlocked', 'user.created']);
    expect(aboutSam.body).not.toContain(bob);
    // The form shows the filter it applied.
    expect(aboutSam.body).toContain(`name="subject_id" value="${sam}"`);
    expect(typesIn((await filtered({ actor_id: admin.userId })).body)).toEqual(['user.unlocked', 'team.created']);

    // Times are the browser's datetime-local values, read as UTC; `until` is exclusive.
    const now = t.clock.now();
    expect(typesIn((await filtered({ since: local(new Date(now.getTime() + 60_000)) })).body)).toEqual([]);
    expect((await filtered({ since: local(new Date(now.getTime() + 60_000)) })).body).toContain('No event matches these filters.');
    const samCreated = new Date(now.getTime() - 3000);
    expect(typesIn((await filtered({ since: local(new Date(samCreated.getTime() - 60_000)), type: 'user.created' })).body)).toEqual(['user.created', 'user.created']);
    const beforeTeam = await filtered({ until: new Date(now.getTime() - 2000).toISOString().slice(0, 19), type: 'user.created,team.created' });
    expect(typesIn(beforeTeam.body)).toEqual(['user.created']);
  });

  it('shows a refused filter at the form: the API\'s paths, the known types, nothing listed', async () => {
    const unknown = await admin.get(`${log()}?type=user.created,no.such.type`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('role="alert"');
    expect(unknown.body).toContain('<code>querystring/type</code>');
    expect(unknown.body).toContain('unknown event type &quot;no.such.type&quot;');
    expect(unknown.body).toContain('<code>saml_provider.created</code>');
    expect(unknown.body).toMatch(/id="f-ev-type" name="type" value="user.created,no.such.type" autocomplete="off" maxlength="1000" aria-invalid="true"/);
    expect(typesIn(unknown.body)).toEqual([]);

    const badTime = await admin.get(`${log()}?since=yesterday`);
    expect(badTime.statusCode).toBe(400);
    // The API's schema names the query `querystring`; its own checks (below) say `query`. Both mark the field.
    expect(badTime.body).toContain('<code>querystring/since</code>');
    expect(badTime.body).toMatch(/name="since" value="yesterday" autocomplete="off" type="datetime-local" step="1" aria-invalid="true"/);
    const backwards = await admin.get(`${log()}?since=2030-01-02T00:00&until=2030-01-01T00:00`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.body).toContain('<code>querystring/until</code>');
    expect(backwards.body).toMatch(/name="until" value="2030-01-01T00:00" autocomplete="off" type="datetime-local" step="1" aria-invalid="true"/);
  });

  it('pages with the API\'s cursor: older events behind a link that keeps the filters, then back to the newest', async () => {
    for (let i = 0; i < 24; i++) {
      t.clock.advance(1000);
      const team = await t.app.inject({ method: 'POST', url: `/teams?project_id=${shop.id}`, headers: bearer(shop.project_secret), payload: { name: `Team ${i}` } });
      expect(team.statusCode).toBe(201);
    }
    const first = await admin.get(`${log()}?type=team.created`);
    expect(typesIn(first.body)).toHaveLength(20);
    expect(first.body).not.toContain('Back to the newest events');
    const next = hrefOf(first.body, /<a class="btn secondary" rel="next" href="([^"]+)"/);
    expect(next).toMatch(new RegExp(`^/console/projects/${shop.id}/events\\?type=team.created&page_token=`));
    const second = await admin.get(next!);
    expect(second.statusCode).toBe(200);
    expect(typesIn(second.body)).toHaveLength(5);
    expect(second.body).toContain('&lt;b&gt;Support&lt;/b&gt;');
    expect(second.body).not.toContain('rel="next"');
    expect(hrefOf(second.body, /<a href="([^"]+)">Back to the newest events<\/a>/)).toBe(`/console/projects/${shop.id}/events?type=team.created`);
    const firstIds = new Set(idsIn(first.body));
    expect(idsIn(second.body).filter((id) => firstIds.has(id))).toEqual([]);

    // A bigger page holds them all; a page token of another query is the API's 400 at the form.
    expect(typesIn((await admin.get(`${log()}?type=team.created&page_size=50`)).body)).toHaveLength(25);
    const token = new URL(next!, ORIGIN).searchParams.get('page_token')!;
    const mismatched = await admin.get(`${log()}?type=user.created&page_token=${encodeURIComponent(token)}`);
    expect(mismatched.statusCode).toBe(400);
    expect(mismatched.body).toContain('role="alert"');
  });

  it('shows a user\'s events on the user page, linked to the filtered log, beside the attribute audit trail', async () => {
    const page = await admin.get(`/console/projects/${shop.id}/users/${sam}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h2>This user&#39;s events</h2>');
    const section = page.body.slice(page.body.indexOf('This user&#39;s events'), page.body.indexOf('<h2>Audit trail</h2>'));
    expect(typesIn(section)).toEqual(['user.unlocked', 'user.created']);
    expect(section).not.toContain(bob);
    expect(section).toContain(`href="/console/projects/${shop.id}/events?subject_id=${sam}"`);
    expect(section).toContain(`href="/console/projects/${shop.id}/events?actor_id=${sam}"`);
    expect(page.body).toContain('<h2>Audit trail</h2>');
  });

  it('keeps projects apart: another project\'s events never show, and a project admin gets 404 for them', async () => {
    const all = await admin.get(`${log()}?page_size=100`);
    expect(all.body).not.toContain(stranger);
    expect(all.body).not.toContain(other.id);
    expect(typesIn((await admin.get(`${log()}?subject_id=${stranger}`)).body)).toEqual([]);
    // The console names the project from its path: a project_id in the query changes nothing.
    expect((await admin.get(`${log()}?project_id=${other.id}`)).body).not.toContain(stranger);

    const pat = await consoleBrowser(t, [{ role: 'project_admin', projectId: shop.id }], ORIGIN);
    const own = await pat.get(`${log()}?subject_id=${sam}`);
    expect(own.statusCode).toBe(200);
    expect(typesIn(own.body)).toEqual(['user.unlocked', 'user.created']);
    expect((await pat.get(`/console/projects/${shop.id}/users/${sam}`)).body).toContain('This user&#39;s events');
    expect((await pat.get(`/console/projects/${other.id}/events`)).statusCode).toBe(404);
    expect((await pat.get(`/console/projects/${other.id}/events?subject_id=${stranger}`)).statusCode).toBe(404);
    expect((await pat.get(`/console/projects/${other.id}/users/${stranger}`)).statusCode).toBe(404);
  });

  it('speaks German, and keeps the language through the filter form and the paging links', async () => {
    const page = await admin.get(`${log()}?lang=de&type=team.created`);
    expect(page.body).toContain('<h1>Ereignisprotokoll</h1>');
    expect(page.body).toContain('<input type="hidden" name="lang" value="de">');
    expect(hrefOf(page.body, /rel="next" href="([^"]+)"/)).toMatch(/&lang=de$/);
  });
});
