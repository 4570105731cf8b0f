import { esc } from '../../ui/html.js';
import { errorItems, noticeMarkup, problemAlert, type FieldError, type FormProblem } from './parts.js';
import { consoleHref, type ConsoleView } from '../render.js';
import { flowGraphSvg, graphModelOf, isRecord } from './flow-graph.js';

export interface Team {
  id: string;
  name: string;
  status: string;
  created_at: string;
}

export interface SchemaRevision {
  id: string;
  schema: Record<string, unknown>;
  metadata: { created_at: string };
}

export interface DefinitionEntry {
  id: string;
  name: string;
  schema_uri: string;
  status: string;
  updated_at: string;
}

export interface FlowDefinition {
  id: string;
  flow_definition: Record<string, unknown>;
  updated_at: string;
}

export type { FieldError, FormProblem } from './parts.js';

/** A refused definition: its errors split into those of a named step and the rest. */
export interface DefinitionProblem extends FormProblem {
  byStep: Map<string, FieldError[]>;
}

const NOTICES = new Set(['team_created', 'team_deleted', 'schema_added', 'flow_created', 'flow_saved', 'flow_activated', 'flow_deactivated', 'flow_checked']);

const notice = (view: ConsoleView, value: unknown) => noticeMarkup(view, value, NOTICES, 'console.model.notice.');
const projectBase = (projectId: string) => `/console/projects/${encodeURIComponent(projectId)}`;
const backLink = (view: ConsoleView, href: string, label: string) => `<p><a href="${esc(consoleHref(view, href))}">${esc(view.t(label))}</a></p>`;
const day = (timestamp: string) => timestamp.slice(0, 10);
const table = (headers: string[], rows: string) => `<table class="console-table"><thead><tr>${headers.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`;
const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** The project's teams and the form that creates one. */
export function teamsMarkup(view: ConsoleView, projectId: string, teams: Team[], options: { notice?: unknown; problem?: FormProblem; deleteProblem?: FormProblem; more: boolean }): string {
  const { t } = view;
  const base = projectBase(projectId);
  const remove = (team: Team) =>
    `<form method="post" action="${esc(consoleHref(view, `${base}/teams/${encodeURIComponent(team.id)}/delete`))}" class="inline"><button type="submit" class="btn secondary" aria-label="${esc(t('console.model.teams.delete_named', { name: team.name }))}">${esc(t('console.model.teams.delete'))}</button></form>`;
  const rows = teams.map((team) => `<tr><td>${esc(team.name)}</td><td><code>${esc(team.id)}</code></td><td>${esc(team.status)}</td><td>${esc(day(team.created_at))}</td><td>${remove(team)}</td></tr>`).join('');
  return (
    backLink(view, base, 'console.back_to_project') +
    `<h1>${esc(t('console.model.teams.title'))}</h1>${notice(view, options.notice)}${problemAlert(options.deleteProblem)}` +
    (teams.length ? table([t('console.projects.name'), t('console.model.id'), t('console.users.status'), t('console.projects.created'), t('console.user.actions')], rows) : `<p class="description">${esc(t('console.model.teams.empty'))}</p>`) +
    (options.more ? `<p class="description">${esc(t('console.model.more'))}</p>` : '') +
    `<h2>${esc(t('console.model.teams.create'))}</h2>${problemAlert(options.problem)}` +
    `<form method="post" action="${esc(consoleHref(view, `${base}/teams`))}">` +
    `<div class="field"><label for="f-team-name">${esc(t('console.projects.name'))}</label><input id="f-team-name" name="name" required maxlength="200" autocomplete="off" value="${esc(options.problem?.text ?? '')}"></div>` +
    `<button type="submit" class="btn primary">${esc(t('console.model.teams.create_button'))}</button></form>`
  );
}

/** The lines of `a` and of `b` that the other does not have (a longest common subsequence of lines). */
export function changedLines(a: string[], b: string[]): { inA: boolean[]; inB: boolean[] } {
  // Beyond this the table is too big for a page request: compare line by line instead.
  if (a.length * b.length > 1_000_000) return { inA: a.map((line, i) => line !== b[i]), inB: b.map((line, i) => line !== a[i]) };
  const common: Uint32Array[] = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i -= 1) for (let j = b.length - 1; j >= 0; j -= 1) common[i][j] = a[i] === b[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
  const inA = a.map(() => true);
  const inB = b.map(() => true);
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) [inA[i], inB[j], i, j] = [false, false, i + 1, j + 1];
    else if (common[i + 1][j] >= common[i][j + 1]) i += 1;
    else j += 1;
  }
  return { inA, inB };
}

export const objectTypeOf = (revision: SchemaRevision) => (typeof revision.schema.objectType === 'string' ? revision.schema.objectType : 'user');

function comparison(view: ConsoleView, a: SchemaRevision, b: SchemaRevision): string {
  const linesA = pretty(a.schema).split('\n');
  const linesB = pretty(b.schema).split('\n');
  const { inA, inB } = changedLines(linesA, linesB);
  const column = (revision: SchemaRevision, side: 'a' | 'b', lines: string[], changed: boolean[], tag: 'del' | 'ins') =>
    `<section class="mail-preview"><h3>${esc(view.t(`console.model.schemas.side_${side}`, { id: revision.id }))}</h3>` +
    `<pre class="snippet" tabindex="0"><code>${lines.map((line, i) => (changed[i] ? `<${tag}>${esc(line)}</${tag}>` : esc(line))).join('\n')}</code></pre></section>`;
  // The mail previews' two top-aligned columns with wrapped lines (style.css) suit a comparison as well.
  return `<div class="console-grid mail-previews console-compare">${column(a, 'a', linesA, inA, 'del')}${column(b, 'b', linesB, inB, 'ins')}</div>`;
}

/** A project's user schemas: every revision, two side by side, and the form that adds one. */
export function schemasMarkup(
  view: ConsoleView,
  projectId: string,
  revisions: SchemaRevision[],
  options: { teams: Team[]; compare?: { a: SchemaRevision; b: SchemaRevision }; notice?: unknown; problem?: FormProblem; more: boolean },
): string {
  const { t } = view;
  const base = projectBase(projectId);
  const newest = new Map(revisions.map((revision) => [objectTypeOf(revision), revision.id]));
  const rows = revisions
    .map((r) => {
      const latest = newest.get(objectTypeOf(r)) === r.id ? ` <span class="muted">(${esc(t('console.model.schemas.latest'))})</span>` : '';
      const compare = `<a href="${esc(consoleHref(view, `${base}/schemas?b=${encodeURIComponent(r.id)}`))}">${esc(t('console.model.schemas.compare_previous'))}</a>`;
      return `<tr><td><code>${esc(r.id)}</code>${latest}</td><td><code>${esc(objectTypeOf(r))}</code></td><td>${esc(r.schema.title ?? '')}</td><td><code>${esc(r.schema.$id ?? '')}</code></td><td>${esc(day(r.metadata.created_at))}</td><td>${compare}</td></tr>`;
    })
    .join('');
  const options_ = (selected: string | undefined) => revisions.map((r) => `<option value="${esc(r.id)}"${r.id === selected ? ' selected' : ''}>${esc(`${r.id} · ${objectTypeOf(r)} · ${day(r.metadata.created_at)}`)}</option>`).join('');
  const [a, b] = [options.compare?.a.id ?? revisions.at(-2)?.id, options.compare?.b.id ?? revisions.at(-1)?.id];
  const latestDocument = revisions.length ? Object.fromEntries(Object.entries(revisions[revisions.length - 1].schema).filter(([key]) => key !== '$id')) : { type: 'object' };
  const teamOptions = options.teams.map((team) => `<option value="${esc(team.id)}">${esc(team.name)}</option>`).join('');
  return (
    backLink(view, base, 'console.back_to_project') +
    `<h1>${esc(t('console.model.schemas.title'))}</h1>${notice(view, options.notice)}` +
    `<h2>${esc(t('console.model.schemas.revisions'))}</h2>` +
    (revisions.length
      ? table([t('console.model.schemas.revision'), t('console.model.schemas.object_type'), t('console.model.schemas.schema_title'), '$id', t('console.projects.created'), t('console.user.actions')], rows)
      : `<p class="description">${esc(t('console.model.schemas.empty'))}</p>`) +
    (options.more ? `<p class="description">${esc(t('console.model.more'))}</p>` : '') +
    `<h2>${esc(t('console.model.schemas.compare'))}</h2>` +
    `<form method="get" action="${esc(`${base}/schemas`)}">` +
    (view.explicitLang ? `<input type="hidden" name="lang" value="${esc(view.lang)}">` : '') +
    `<div class="field"><label for="f-a">${esc(t('console.model.schemas.left'))}</label><select id="f-a" name="a">${options_(a)}</select></div>` +
    `<div class="field"><label for="f-b">${esc(t('console.model.schemas.right'))}</label><select id="f-b" name="b">${options_(b)}</select></div>` +
    `<button type="submit" class="btn secondary">${esc(t('console.model.schemas.compare_button'))}</button></form>` +
    (options.compare ? comparison(view, options.compare.a, options.compare.b) : '') +
    `<h2>${esc(t('console.model.schemas.add'))}</h2><p class="description">${esc(t('console.model.schemas.add_hint'))}</p>${problemAlert(options.problem)}` +
    `<form method="post" action="${esc(consoleHref(view, `${base}/schemas`))}">` +
    `<div class="field"><label for="f-schema">${esc(t('console.model.schemas.document'))}</label><textarea id="f-schema" name="document" rows="16" class="code"${options.problem ? ' aria-invalid="true"' : ''}>${esc(options.problem?.text ?? pretty(latestDocument))}</textarea></div>` +
    `<div class="field"><label for="f-team">${esc(t('console.model.schemas.team'))}</label><select id="f-team" name="team_id"><option value="">${esc(t('console.model.schemas.no_team'))}</option>${teamOptions}</select></div>` +
    `<button type="submit" class="btn primary">${esc(t('console.model.schemas.add_button'))}</button></form>`
  );
}

/** The API's 400 about a definition: `{step, field}` issues and `body/flow_definition/steps/<i>/…` paths go to their step. */
export function definitionProblemOf(body: Record<string, unknown>, typed: unknown, text: string): DefinitionProblem {
  const details = body.details as { errors?: unknown } | undefined;
  const steps = graphModelOf(typed).steps;
  const byStep = new Map<string, FieldError[]>();
  const errors: FieldError[] = [];
  for (const raw of Array.isArray(details?.errors) ? (details.errors as Array<Record<string, unknown>>) : []) {
    const message = String(raw?.message ?? '');
    let step: string | undefined;
    let path: string;
    if (typeof raw?.path === 'string') {
      const inStep = /^body\/flow_definition\/steps\/(\d+)(\/.*)?$/.exec(raw.path);
      step = inStep ? steps[Number(inStep[1])]?.name : undefined;
      path = inStep && step !== undefined ? `steps/${inStep[1]}${inStep[2] ?? ''}` : raw.path;
    } else {
      // A step the typed text does not have (it was renamed since) keeps its name in the path.
      const named = typeof raw?.step === 'string' ? raw.step : undefined;
      step = named !== undefined && steps.some((s) => s.name === named) ? named : undefined;
      path = `${named !== undefined && step === undefined ? `${named}: ` : ''}${String(raw?.field ?? '')}`;
    }
    if (step !== undefined) byStep.set(step, [...(byStep.get(step) ?? []), { path, message }]);
    else errors.push({ path, message });
  }
  return { message: typeof body.message === 'string' ? body.message : String(body.code ?? ''), errors, byStep, text };
}

/** The project's flow definitions and the form that creates one. */
export function flowsMarkup(view: ConsoleView, projectId: string, entries: DefinitionEntry[], options: { starter: string; notice?: unknown; problem?: DefinitionProblem; more: boolean }): string {
  const { t } = view;
  const base = projectBase(projectId);
  const rows = entries
    .map((e) => `<tr><td><a href="${esc(consoleHref(view, `${base}/flows/${encodeURIComponent(e.id)}`))}">${esc(e.name)}</a></td><td>${esc(t(`console.model.flows.status_${e.status === 'active' ? 'active' : 'inactive'}`))}</td><td><code>${esc(e.schema_uri)}</code></td><td>${esc(day(e.updated_at))}</td></tr>`)
    .join('');
  const stepErrors = [...(options.problem?.byStep ?? [])].flatMap(([step, errors]) => errors.map((e) => ({ path: `${step}: ${e.path}`, message: e.message })));
  const typed = options.problem?.text !== undefined ? parsedOrUndefined(options.problem.text) : undefined;
  return (
    backLink(view, base, 'console.back_to_project') +
    `<h1>${esc(t('console.model.flows.title'))}</h1>${notice(view, options.notice)}` +
    (entries.length ? table([t('console.projects.name'), t('console.users.status'), t('console.model.flows.user_schema'), t('console.model.flows.updated')], rows) : `<p class="description">${esc(t('console.model.flows.empty'))}</p>`) +
    (options.more ? `<p class="description">${esc(t('console.model.more'))}</p>` : '') +
    `<h2>${esc(t('console.model.flows.create'))}</h2><p class="description">${esc(t('console.model.flows.create_hint'))}</p>${problemAlert(options.problem, [...(options.problem?.errors ?? []), ...stepErrors])}` +
    (typed !== undefined ? graphMarkup(view, typed, 'new', options.problem) : '') +
    `<form method="post" action="${esc(consoleHref(view, `${base}/flows`))}">` +
    `<div class="field"><label for="f-definition">${esc(t('console.model.flows.document'))}</label><textarea id="f-definition" name="definition" rows="16" class="code"${options.problem ? ' aria-invalid="true"' : ''}>${esc(options.problem?.text ?? options.starter)}</textarea></div>` +
    `<button type="submit" class="btn primary">${esc(t('console.model.flows.create_button'))}</button></form>`
  );
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The step graph in a scrollable, focusable frame (a wide graph scrolls; axe: keyboard access). */
function graphMarkup(view: ConsoleView, definition: unknown, id: string, problem: DefinitionProblem | undefined): string {
  const name = String((definition as { name?: unknown } | null)?.name ?? id);
  const label = view.t('console.model.flows.graph', { name });
  return `<div class="console-graph snippet" tabindex="0" role="region" aria-label="${esc(label)}">${flowGraphSvg(definition, { title: label, idPrefix: `flow-${id}`, flagged: new Set(problem?.byStep.keys()) })}</div>`;
}

const list = (values: unknown) => (Array.isArray(values) ? values.map((v) => `<code>${esc(v)}</code>`).join(', ') : '');

/** One definition: its step graph, its steps with the API's problems next to each, the JSON to save, and its status. */
export function flowMarkup(view: ConsoleView, projectId: string, definition: FlowDefinition, options: { notice?: unknown; problem?: DefinitionProblem; statusProblem?: FormProblem; checked?: string }): string {
  const { t } = view;
  const base = `${projectBase(projectId)}/flows/${encodeURIComponent(definition.id)}`;
  const doc = definition.flow_definition;
  const name = String(doc.name ?? definition.id);
  const active = (doc.status ?? 'active') === 'active';
  // After a refused save the picture and the steps are those of the text as typed, where the problems are.
  const shown = (options.problem?.text !== undefined ? parsedOrUndefined(options.problem.text) : undefined) ?? doc;
  const stepRows = graphModelOf(shown)
    .steps.map(({ name: step, raw }) => {
      const transitions = Object.entries(isRecord(raw.transitions) ? raw.transitions : {})
        .map(([trigger, to]) => (isRecord(to) ? `<code>${esc(trigger)}</code> → <code>${esc(to.target)}</code>${to.action !== undefined ? ` (${esc(to.action)})` : ''}` : `<code>${esc(trigger)}</code>`))
        .join('<br>');
      const problems = options.problem?.byStep.get(step) ?? [];
      return `<tr><th scope="row"><code>${esc(step)}</code></th><td>${list(raw.fields)}${raw.complete !== undefined ? esc(t('console.model.flows.complete', { how: String(raw.complete) })) : ''}</td><td>${transitions}</td><td>${problems.length ? `<ul class="alert">${errorItems(problems)}</ul>` : ''}</td></tr>`;
    })
    .join('');
  const purposes = Object.entries(isRecord(doc.purposes) ? doc.purposes : {}).map(([purpose, entry]) => `<code>${esc(purpose)}</code> → <code>${esc(entry)}</code>`).join(', ');
  return (
    backLink(view, `${projectBase(projectId)}/flows`, 'console.model.flows.back') +
    `<h1>${esc(t('console.model.flows.one_title', { name }))}</h1>${notice(view, options.notice)}` +
    `<dl class="console-facts"><dt>${esc(t('console.model.id'))}</dt><dd><code>${esc(definition.id)}</code></dd><dt>${esc(t('console.users.status'))}</dt><dd>${esc(t(`console.model.flows.status_${active ? 'active' : 'inactive'}`))}</dd>` +
    `<dt>${esc(t('console.model.flows.purposes'))}</dt><dd>${purposes}</dd><dt>${esc(t('console.model.flows.user_schema'))}</dt><dd><code>${esc(doc.user_schema ?? '')}</code></dd><dt>${esc(t('console.model.flows.updated'))}</dt><dd>${esc(definition.updated_at.slice(0, 19).replace('T', ' '))}</dd></dl>` +
    `<h2>${esc(t('console.model.flows.steps'))}</h2>` +
    graphMarkup(view, shown, definition.id, options.problem) +
    table([t('console.model.flows.step'), t('console.model.flows.fields'), t('console.model.flows.transitions'), t('console.model.flows.problems')], stepRows) +
    `<h2>${esc(t('console.model.flows.edit'))}</h2><p class="description">${esc(t('console.model.flows.edit_hint'))}</p>${problemAlert(options.problem)}` +
    `<form method="post" action="${esc(consoleHref(view, base))}">` +
    `<div class="field"><label for="f-definition">${esc(t('console.model.flows.document'))}</label><textarea id="f-definition" name="definition" rows="20" class="code"${options.problem ? ' aria-invalid="true"' : ''}>${esc(options.problem?.text ?? options.checked ?? pretty(doc))}</textarea></div>` +
    `<div class="console-actions"><button type="submit" name="intent" value="check" class="btn secondary">${esc(t('console.model.flows.check'))}</button>` +
    `<button type="submit" class="btn primary">${esc(t('console.model.flows.save'))}</button></div></form>` +
    `<h2>${esc(t('console.model.flows.status'))}</h2><p class="description">${esc(t(`console.model.flows.status_hint_${active ? 'active' : 'inactive'}`))}</p>${problemAlert(options.statusProblem)}` +
    `<form method="post" action="${esc(consoleHref(view, `${base}/status`))}"><input type="hidden" name="status" value="${active ? 'inactive' : 'active'}">` +
    `<button type="submit" class="btn ${active ? 'secondary' : 'primary'}">${esc(t(active ? 'console.model.flows.deactivate' : 'console.model.flows.activate'))}</button></form>`
  );
}
