import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { CODE_TTL_MS } from './service.js';

/** A code and the magic link issued with it are one row: one use, one budget, one lifetime (DESIGN §4.11). */
describe('one-time codes with a link', () => {
  let t: TestApp;
  let projectId: string;
  const both = { code: true, link: true };

  beforeAll(async () => {
    t = await createTestApp();
    projectId = (await t.createProject()).id;
  });
  afterAll(async () => t.close());

  it('consuming the link consumes the code, and the other way round', async () => {
    const { codes } = t.container.flows;
    const a = await codes.issue(projectId, undefined, 'otp', { link: true });
    expect(a.link).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await codes.consume(projectId, a.id, a.link!, both)).toBe('consumed');
    expect(await codes.consume(projectId, a.id, a.code, both)).toBe('wrong');
    const b = await codes.issue(projectId, undefined, 'otp', { link: true });
    expect(await codes.consume(projectId, b.id, b.code, both)).toBe('consumed');
    expect(await codes.consume(projectId, b.id, b.link!, both)).toBe('wrong');
  });

  it('a link is refused where links are not accepted, and both die after 10 minutes', async () => {
    const { codes } = t.container.flows;
    const a = await codes.issue(projectId, undefined, 'otp', { link: true });
    expect(await codes.consume(projectId, a.id, a.link!, { code: true, link: false })).toBe('wrong');
    t.clock.advance(CODE_TTL_MS);
    expect(await codes.consume(projectId, a.id, a.code, both)).toBe('wrong');
    expect(await codes.consume(projectId, a.id, a.link!, both)).toBe('wrong');
  });

  it("another project's id never matches", async () => {
    const { codes } = t.container.flows;
    const other = (await t.createProject()).id;
    const a = await codes.issue(projectId, undefined, 'otp', { link: true });
    expect(await codes.consume(other, a.id, a.link!, both)).toBe('wrong');
    expect(await codes.consume(projectId, a.id, a.link!, both)).toBe('consumed');
  });
});
