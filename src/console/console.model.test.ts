import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { consoleBrowser, type ConsoleBrowser } from './console-test-kit.js';
import { flowGraphSvg } from './pages/flow-graph.js';
import { changedLines } from './pages/model.js';

const ORIGIN = 'http://localhost';

/** The text of a textarea or code block as the browser shows it (the page escapes it). */
const unescape = (html: string) => html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const textareaOf = (html: string, name: string) => unescape(new RegExp(`<textarea[^>]* name="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html)![1]);
/** The row of the steps table that names this step. */
const stepRow = (html: string, step: string) => new RegExp(`<tr><th scope="row"><code>${step}</code></th>[\\s\\S]*?</tr>`).exec(html)?.[0] ?? '';
const svgOf = (html: string) => /<svg[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';

describe('the console: teams, user schemas and flow definitions of a project (inject)', () => {
  let t: TestApp;
  let admin: ConsoleBrowser;
  let shop: { id: string; project_secret: string };
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => t.app.inject({ method, url, headers: bearer(shop.project_secret), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp({ publicUrl: ORIGIN });
    shop = await t.createProject('Shop');
    admin = await consoleBrowser(t, [{ role: 'instance_admin' }], ORIGIN);
  });
  afterAll(async () => t.close());

  it('lists and creates teams, with the API\'s 400 and 409 at the form', async () => {
    const empty = await admin.get(`/console/projects/${shop.id}/teams`);
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('No team yet.');

    const created = await admin.post(`/console/projects/${shop.id}/teams`, { name: 'Support <desk>' });
    expect(created.statusCode).toBe(303);
    expect(created.headers.location).toBe(`/console/projects/${shop.id}/teams?notice=team_created`);
    const teams = (await api('GET', '/teams')).json().teams as Array<{ id: string; name: string }>;
    expect(teams.map((team) => team.name)).toEqual(['Support <desk>']);
    const page = await admin.get(created.headers.location as string);
    expect(page.body).toContain('The team was created.');
    expect(page.body).toContain('Support &lt;desk&gt;');
    expect(page.body).toContain(teams[0].id);

    const twice = await admin.post(`/console/projects/${shop.id}/teams`, { name: 'Support <desk>' });
    expect(twice.statusCode).toBe(409);
    expect(twice.body).toContain('role="alert"');
    expect(twice.body).toContain('value="Support &lt;desk&gt;"');
    const blank = await admin.post(`/console/projects/${shop.id}/teams`, { name: '' });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain('<code>body/name</code>');
    const forged = await t.app.inject({ method: 'POST', url: `/console/projects/${shop.id}/teams`, headers: { cookie: admin.cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=Forged' });
    expect(forged.statusCode).toBe(403);
    expect((await api('GET', '/teams')).json().teams).toHaveLength(1);
    const german = await admin.get(`/console/projects/${shop.id}/teams?lang=de`);
    expect(german.body).toContain('<h2>Team anlegen</h2>');
    expect(german.body).toContain(`action="/console/projects/${shop.id}/teams?lang=de"`);

    // A team that owns a user is kept (the API's 409 above the list); one that owns nothing goes.
    const schema = (await t.container.schemas.defaultFor(shop.id))!;
    const owned = await t.app.inject({ method: 'POST', url: `/users?project_id=${shop.id}&team_id=${teams[0].id}`, headers: bearer(shop.project_secret), payload: { schema: schema.id, attributes: { email: 'owned@example.com', name: { given: 'O' } } } });
    expect(owned.statusCode).toBe(201);
    const kept = await admin.post(`/console/projects/${shop.id}/teams/${teams[0].id}/delete`);
    expect(kept.statusCode).toBe(409);
    expect(kept.body).toContain('role="alert"');
    expect((await api('GET', '/teams')).json().teams).toHaveLength(1);
    await t.app.inject({ method: 'DELETE', url: `/users/${owned.json().id}`, headers: bearer(shop.project_secret) });
    const deleted = await admin.post(`/console/projects/${shop.id}/teams/${teams[0].id}/delete`);
    expect(deleted.headers.location).toBe(`/console/projects/${shop.id}/teams?notice=team_deleted`);
    expect((await api('GET', '/teams')).json().teams).toHaveLength(0);
  });

  it('adds a user schema revision, shows two side by side, and shows the API\'s 400 at the form', async () => {
    const page = await admin.get(`/console/projects/${shop.id}/schemas`);
    expect(page.statusCode).toBe(200);
    const [first] = (await api('GET', '/schemas')).json().schemas as Array<{ id: string; schema: Record<string, unknown> }>;
    expect(page.body).toContain(first.id);
    // The form starts with the newest revision, without the $id that a new one may not repeat.
    const starter = JSON.parse(textareaOf(page.body, 'document')) as Record<string, unknown>;
    expect(starter.$id).toBeUndefined();
    expect(starter.title).toBe(first.schema.title);

    const refused = await admin.post(`/console/projects/${shop.id}/schemas`, { document: '{"type": "string"}' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('<code>schema/type</code>');
    expect(textareaOf(refused.body, 'document')).toBe('{"type": "string"}');
    const notJson = await admin.post(`/console/projects/${shop.id}/schemas`, { document: '{"type": ' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.body).toContain('This is not valid JSON.');
    expect((await api('GET', '/schemas')).json().schemas).toHaveLength(1);

    // Revisions are listed oldest first: the new one is a second younger (the test clock stands still).
    t.clock.advance(1000);
    const added = await admin.post(`/console/projects/${shop.id}/schemas`, { document: JSON.stringify({ ...starter, title: 'Customer' }, null, 2) });
    expect(added.statusCode).toBe(303);
    const revisions = (await api('GET', '/schemas')).json().schemas as Array<{ id: string; schema: Record<string, unknown> }>;
    expect(revisions.map((r) => r.schema.title)).toEqual([first.schema.title, 'Customer']);
    const second = revisions[1].id;
    expect(added.headers.location).toBe(`/console/projects/${shop.id}/schemas?notice=schema_added&b=${second}`);

    // `?b=` alone compares with the revision before; the changed title is marked on each side.
    const compared = await admin.get(added.headers.location as string);
    expect(compared.body).toContain(`Left: ${first.id}`);
    expect(compared.body).toContain(`Right: ${second}`);
    expect(compared.body).toContain(`<del>  &quot;title&quot;: &quot;${first.schema.title}&quot;,</del>`);
    expect(compared.body).toContain('<ins>  &quot;title&quot;: &quot;Customer&quot;,</ins>');
    expect(compared.body).not.toContain('<del>  &quot;type&quot;: &quot;object&quot;,</del>');
    // Picked the other way round with `?a=&b=`.
    const swapped = await admin.get(`/console/projects/${shop.id}/schemas?a=${second}&b=${first.id}`);
    expect(swapped.body).toContain(`Left: ${second}`);
    expect(swapped.body).toContain(`Right: ${first.id}`);
    expect(swapped.body).toContain('<del>  &quot;title&quot;: &quot;Customer&quot;,</del>');
  });

  it('draws a default definition\'s steps, shows the API\'s errors next to their step, saves and activates', async () => {
    const list = await admin.get(`/console/projects/${shop.id}/flows`);
    expect(list.statusCode).toBe(200);
    const entries = (await api('GET', '/flow_definitions')).json().flow_definitions as Array<{ id: string; name: string }>;
    const login = entries.find((entry) => entry.name === 'login')!;
    expect(list.body).toContain(`/console/projects/${shop.id}/flows/${login.id}`);

    const page = await admin.get(`/console/projects/${shop.id}/flows/${login.id}`);
    expect(page.statusCode).toBe(200);
    const stored = (await api('GET', `/flow_definitions/${login.id}`)).json().flow_definition as { steps: Array<{ name: string; transitions?: Record<string, { target: string }> }> };
    const svg = svgOf(page.body);
    expect(svg).toMatch(/^<svg [^>]*role="img"[^>]*aria-labelledby="([^" ]+-title) [^"]+"/);
    expect(svg).toContain('<title id="flow-');
    expect(stored.steps.length).toBeGreaterThan(3);
    for (const step of stored.steps) expect(svg, step.name).toContain(`>${step.name}</text>`);
    expect(svg).not.toContain('<script');

    // A transition to a step that does not exist, and a property no step has: each named at its step.
    const broken = structuredClone(stored);
    broken.steps[0].transitions = { ...broken.steps[0].transitions, continue: { target: 'nowhere' } };
    (broken.steps[1] as Record<string, unknown>).colour = 'red';
    const refused = await admin.post(`/console/projects/${shop.id}/flows/${login.id}`, { definition: JSON.stringify(broken, null, 2) });
    expect(refused.statusCode).toBe(400);
    expect(stepRow(refused.body, stored.steps[1].name)).toContain('<code>steps/1/colour</code>');
    expect(textareaOf(refused.body, 'definition')).toBe(JSON.stringify(broken, null, 2));
    expect((await api('GET', `/flow_definitions/${login.id}`)).json().flow_definition).toEqual(stored);
    delete (broken.steps[1] as Record<string, unknown>).colour;
    const unknownStep = await admin.post(`/console/projects/${shop.id}/flows/${login.id}`, { definition: JSON.stringify(broken) });
    expect(unknownStep.statusCode).toBe(400);
    expect(stepRow(unknownStep.body, stored.steps[0].name)).toContain('<code>transitions.continue.target</code> unknown step');
    expect(svgOf(unknownStep.body)).toContain('stroke="#b3261e" stroke-width="3"');

    const edited = { ...stored, steps: stored.steps.map((step, index) => (index === 0 ? { ...step, texts: { title_key: 'step.welcome.title' } } : step)) };
    // "Check" asks the API (POST /flow_definitions/validate) and stores nothing, either way.
    const checkedBroken = await admin.post(`/console/projects/${shop.id}/flows/${login.id}`, { definition: JSON.stringify(broken), intent: 'check' });
    expect(checkedBroken.statusCode).toBe(400);
    expect(stepRow(checkedBroken.body, stored.steps[0].name)).toContain('<code>transitions.continue.target</code> unknown step');
    const checked = await admin.post(`/console/projects/${shop.id}/flows/${login.id}`, { definition: JSON.stringify(edited), intent: 'check' });
    expect(checked.statusCode).toBe(200);
    expect(checked.body).toContain('The definition is valid. Nothing was saved yet.');
    expect(textareaOf(checked.body, 'definition')).toBe(JSON.stringify(edited));
    expect((await api('GET', `/flow_definitions/${login.id}`)).json().flow_definition).toEqual(stored);
    const saved = await admin.post(`/console/projects/${shop.id}/flows/${login.id}`, { definition: JSON.stringify(edited) });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`/console/projects/${shop.id}/flows/${login.id}?notice=flow_saved`);
    expect((await api('GET', `/flow_definitions/${login.id}`)).json().flow_definition.steps[0].texts).toEqual({ title_key: 'step.welcome.title' });

    // The only active login definition cannot be deactivated: the API's 409 at the status form.
    const lastActive = await admin.post(`/console/projects/${shop.id}/flows/${login.id}/status`, { status: 'inactive' });
    expect(lastActive.statusCode).toBe(409);
    expect(lastActive.body).toContain('last active one for purpose');
    expect((await api('GET', '/flow_definitions')).json().flow_definitions.find((e: { id: string }) => e.id === login.id).status).toBe('active');
  });

  it('creates a definition from the starter (inactive), activates it, and escapes a hostile step name', async () => {
    const list = await admin.get(`/console/projects/${shop.id}/flows`);
    const starter = JSON.parse(textareaOf(list.body, 'definition')) as Record<string, unknown>;
    const hostile = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
    const definition = { ...starter, name: 'hostile', purposes: { hostile: hostile }, steps: [{ name: hostile, complete: 'show' }] };
    const created = await admin.post(`/console/projects/${shop.id}/flows`, { definition: JSON.stringify(definition) });
    expect(created.statusCode).toBe(303);
    const id = new URL(created.headers.location as string, ORIGIN).pathname.split('/').pop()!;
    expect((await api('GET', '/flow_definitions')).json().flow_definitions.find((e: { id: string }) => e.id === id)).toMatchObject({ name: 'hostile', status: 'inactive' });

    const page = await admin.get(created.headers.location as string);
    expect(page.body).toContain('The flow definition was created.');
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body).not.toContain('<img src=x');
    expect(svgOf(page.body)).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');

    const activated = await admin.post(`/console/projects/${shop.id}/flows/${id}/status`, { status: 'active' });
    expect(activated.statusCode).toBe(303);
    expect(activated.headers.location).toBe(`/console/projects/${shop.id}/flows/${id}?notice=flow_activated`);
    expect((await api('GET', `/flow_definitions/${id}`)).json().flow_definition.status).toBe('active');

    const invalid = await admin.post(`/console/projects/${shop.id}/flows`, { definition: JSON.stringify({ ...starter, name: 'second', steps: [{ name: 'start', fields: ['shoe_size'] }] }) });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain('start: fields[0]');
    expect(invalid.body).toContain('is not a property of the user schema');
    expect(svgOf(invalid.body)).toContain('>⚠ start</text>');
  });

  it('answers 404 to a project admin on another project\'s pages', async () => {
    const other = await t.createProject('Other');
    const projectAdmin = await consoleBrowser(t, [{ role: 'project_admin', projectId: shop.id }], ORIGIN);
    for (const section of ['teams', 'schemas', 'flows']) {
      expect((await projectAdmin.get(`/console/projects/${shop.id}/${section}`)).statusCode, section).toBe(200);
      expect((await projectAdmin.get(`/console/projects/${other.id}/${section}`)).statusCode, section).toBe(404);
    }
    const theirs = (await t.app.inject({ method: 'GET', url: '/flow_definitions', headers: bearer(other.project_secret) })).json().flow_definitions[0].id as string;
    expect((await projectAdmin.get(`/console/projects/${shop.id}/flows/${theirs}`)).statusCode).toBe(404);
    expect((await projectAdmin.post(`/console/projects/${other.id}/teams`, { name: 'Intruders' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/teams', headers: bearer(other.project_secret) })).json().teams).toEqual([]);
  });
});

describe('the step graph (pure)', () => {
  it('draws a box per step, a pill per purpose and per other definition, and escapes every text', () => {
    const svg = flowGraphSvg(
      { name: 'x', purposes: { login: 'a&b' }, steps: [{ name: 'a&b', transitions: { go: { target: '<c>' }, away: { target: 'register', action: 'switch' } } }, { name: '<c>', complete: 'show' }] },
      { title: 'Steps "x"', idPrefix: 'g' },
    );
    expect(svg).toContain('<title id="g-title">Steps &quot;x&quot;</title>');
    expect(svg).toContain('>a&amp;b</text>');
    expect(svg).toContain('>&lt;c&gt;</text>');
    expect(svg).toContain('>register (switch)</text>');
    expect(svg).toContain('<desc id="g-desc">login → a&amp;b; a&amp;b → &lt;c&gt; (go); a&amp;b → register (switch) (away)</desc>');
    expect(svg.match(/<path d=/g)).toHaveLength(4);
    // A transition to a step that is not there: a dashed red box with a warning sign.
    const missing = flowGraphSvg({ purposes: { p: 'a' }, steps: [{ name: 'a', transitions: { go: { target: 'gone' } } }] }, { title: 't', idPrefix: 'm' });
    expect(missing).toMatch(/<rect [^>]*stroke="#b3261e"[^>]*stroke-dasharray="5 4"\/><text [^>]*>⚠ gone<\/text>/);
    // Whatever was typed, the picture is drawn.
    expect(flowGraphSvg('not a definition', { title: 't', idPrefix: 'h' })).toContain('role="img"');
  });

  it('marks the lines only one side has', () => {
    expect(changedLines(['a', 'b', 'c'], ['a', 'x', 'c', 'd'])).toEqual({ inA: [false, true, false], inB: [false, true, false, true] });
  });
});
