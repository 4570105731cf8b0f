import { AppError, MESSAGES, notFoundError } from '../../core/errors.js';
import { emptyState, findByTopId, FLOW_TTL_MS, framesHoldAny, requireEntry, type FlowCookieState, type FlowEntry } from '../state.js';
import type { FlowDeps } from './deps.js';
import { isCompleteStep, type FlowStepDef } from '../definitions/types.js';
import type { AuthMethod } from '../methods/declaration.js';
import { ACTION_KIND_OWNERS, claimantOf, LEGACY_FRAME_KEYS, SESSION_BOUND_PURPOSES, upgradeFrames } from '../methods/registry.js';
import { flowGone, FlowStateChanged, invalidAction } from '../errors.js';
import { FlowRun } from './run.js';
import type { FlowResult, RequestContext, StartInput } from './types.js';
import type { FlowResponse, SubmitInput } from '../view.js';
import { identifierField } from '../definitions/schema-view.js';
import { renderStep, RunContext, runStep, STAY } from './context.js';
import { planOf, readFields } from './fields.js';
import { guessedAccount } from './guard.js';
import { claimSessionBoundFrame, signedInUser } from './session-bound.js';
import { complete } from './complete.js';

/** A flow an SSO callback completed: its answer, for the first read. */
export interface CompletedFlow {
  projectId: string;
  result: FlowResult;
}

/**
 * Events (`POST /flow/{id}/event`) one flow may store, each up to 8 KiB (DESIGN §4.6a). The risk
 * rules read a session's latest fingerprint event; a frontend sends one or a few per flow.
 */
export const FLOW_EVENT_CAP = 50;

const invalidRequest = (details: Record<string, unknown>) => new AppError('att.invalid_request', MESSAGES.invalidRequest, details);

/**
 * The stateless flow runtime (DESIGN §4.5): every request decrypts `_zflow`, works on one
 * concurrent flow of it and encrypts it again; nothing about a flow is kept on the server except
 * the live-run registry that keeps its definition in use.
 */
export class FlowRuntime {
  constructor(private readonly deps: FlowDeps) {}

  private async decode(cookie: string | undefined): Promise<FlowCookieState> {
    if (!cookie) return emptyState();
    const state = await this.deps.codec.decode(cookie);
    return framesHoldAny(state, LEGACY_FRAME_KEYS) ? upgradeFrames(state) : state;
  }

  /** Decrypts the cookie and finds the flow a client addresses (404 / 410 / 400 otherwise). */
  async open(flowId: string, ctx: RequestContext, projectId?: string): Promise<FlowRun> {
    return this.runOf(await this.stateOf(flowId, ctx), flowId, ctx, projectId);
  }

  /**
   * What a client reading a flow addresses, from one decrypt of the cookie: its run, or the answer
   * an SSO callback completed the flow with (DESIGN §4.14), once: the tombstone drops it, so later
   * reads answer 410 `flow.completed`.
   */
  async locate(flowId: string, ctx: RequestContext, projectId?: string): Promise<FlowRun | CompletedFlow> {
    const state = await this.stateOf(flowId, ctx);
    const entry = findByTopId(state, flowId)?.entry;
    const now = this.deps.clock.now();
    if (entry?.done && entry.rs !== undefined && entry.ex > now.getTime() && (projectId === undefined || entry.p === projectId)) {
      const body = entry.rs as FlowResponse;
      delete entry.rs;
      return { projectId: entry.p, result: { body, cookie: await this.deps.codec.encode(state, now) } };
    }
    return this.runOf(state, flowId, ctx, projectId);
  }

  private async stateOf(flowId: string, ctx: RequestContext): Promise<FlowCookieState> {
    if (!ctx.cookie) throw notFoundError('flow.not_found', { flow_id: flowId });
    return this.decode(ctx.cookie);
  }

  private runOf(state: FlowCookieState, flowId: string, ctx: RequestContext, projectId?: string): FlowRun {
    const { key, entry } = requireEntry(state, flowId, this.deps.clock.now(), projectId);
    return new FlowRun(this.deps, state, key, entry, ctx);
  }

  async start(input: StartInput, ctx: RequestContext): Promise<FlowResult> {
    const { deps } = this;
    const project = await deps.projects.row(input.project_id);
    if (!project) throw notFoundError('proj.not_found');
    const definition = await deps.definitions.resolve(project.id, input.purpose, input.app_id);
    if (!definition) throw invalidRequest({ errors: [{ path: 'body/purpose', message: 'no active flow definition serves this purpose' }] });
    if (input.redirect_uri !== undefined) {
      const { redirect_uris } = await deps.flowSettings.flowSettings(project.id);
      if (!redirect_uris.includes(input.redirect_uri)) {
        throw invalidRequest({ errors: [{ path: 'body/redirect_uri', message: 'is not in the project\'s redirect allow-list (add it to flow_settings.redirect_uris: PUT /projects/{project_id}/flow_settings)' }] });
      }
    }
    // A broken cookie must not stop a new flow: it is replaced.
    const state = await this.decode(ctx.cookie).catch(() => emptyState());
    const now = deps.clock.now().getTime();
    const entry: FlowEntry = { p: project.id, ss: '', ct: now, ex: now + FLOW_TTL_MS, f: [] };
    if (input.app_id !== undefined) entry.ap = input.app_id;
    if (input.redirect_uri !== undefined) entry.r = input.redirect_uri;
    const run = new FlowRun(deps, state, '', entry, ctx);
    const frame = run.frameFor(definition, input.purpose);
    // Anyone may start flows, and each start stores rows: they are written under the client's budget (DESIGN §4.6a).
    const gate = deps.flowStarts.gate(project.id, ctx.ip, (await run.guard.riskRules()).ip_flow_starts_per_minute);
    const startRun = (sessionId: string) => deps.definitions.startRunQuery(project.id, frame.id, definition.row.id, sessionId, new Date(entry.ex), gate?.when);
    const writeRun = (sessionId: string) => deps.definitions.startRun(project.id, frame.id, definition.row.id, sessionId, new Date(entry.ex), gate);
    let sessionToken: string | undefined;
    let settingsUserId: string | undefined;
    if (SESSION_BOUND_PURPOSES.has(input.purpose)) {
      settingsUserId = await signedInUser(deps, project.id, input.session_id, ctx.sessionToken);
      entry.ss = input.session_id!;
      await writeRun(entry.ss);
    } else if (input.session_id !== undefined) {
      const session = await deps.sessions.get(project.id, input.session_id);
      if (session.state === 'expired') throw notFoundError('sess.not_found');
      entry.ss = session.session_id;
      await writeRun(entry.ss);
    } else {
      // The budget, the new shell and the flow's run are one statement.
      const issued = await deps.sessions.createAnonymous(project.id, { ip: ctx.ip }, startRun, gate);
      entry.ss = issued.session.session_id;
      sessionToken = issued.session_token;
    }
    entry.f.push(frame);
    if (settingsUserId !== undefined) await claimSessionBoundFrame(run, frame, settingsUserId);
    state.flows[frame.id] = entry;
    const started = new FlowRun(deps, state, frame.id, entry, ctx);
    const result = await this.respond(started, await started.settle((step) => this.invisible(started, step)));
    if (sessionToken !== undefined) result.body.session_token = sessionToken;
    return result;
  }

  async get(flowId: string, ctx: RequestContext, projectId?: string): Promise<FlowResult> {
    const found = await this.locate(flowId, ctx, projectId);
    return found instanceof FlowRun ? this.show(found) : found.result;
  }

  /** The current step of an opened run, re-rendered (GET /flow/{id}). */
  async show(run: FlowRun): Promise<FlowResult> {
    const ctx = run.ctx;
    const { step, loaded } = await run.current();
    const captcha = await run.guard.needsCaptcha(step, planOf(step).checksCredentials);
    const body = await this.body(run, await renderStep(run, step, loaded, captcha));
    // Rendering may issue a challenge (passkey autofill); only then is the cookie written again.
    const cookie = run.stateChanged ? await this.deps.codec.encode(run.state, this.deps.clock.now(), run.key) : (ctx.cookie ?? null);
    return { body, cookie };
  }

  async submit(run: FlowRun, input: SubmitInput): Promise<FlowResult> {
    try {
      return await this.advance(run, input);
    } catch (error) {
      if (!(error instanceof FlowStateChanged)) throw error;
      // Saving writes a pending single use first, whose refusal (with the state it rolled back) is then the answer.
      const answer = await run.saveAttempt().then(
        () => error,
        (refusal: unknown) => refusal,
      );
      if (answer instanceof FlowStateChanged) answer.cookie = await this.deps.codec.encode(run.state, this.deps.clock.now(), run.key);
      throw answer;
    }
  }

  /** Runs the submitted action: the step's fields, a navigation, or an action of a method's own kind. */
  private async advance(run: FlowRun, input: SubmitInput): Promise<FlowResult> {
    const { frame, loaded, step } = await run.current();
    const action = (step.actions ?? []).find((a) => a.name === input.action);
    if (!action) throw invalidAction(frame.id, input.action);
    const ctx = new RunContext(run, loaded, step);
    // An error shown from between requests (an SSO return) is answered by this submit.
    frame.er = undefined;
    let outcome: string | undefined;
    if (action.kind === 'submit') {
      outcome = await this.submitFields(ctx, input);
      if (outcome === STAY) return this.respond(run, false);
    } else if (action.kind === 'navigate') {
      if (Object.keys(input.fields).length > 0) throw invalidAction(frame.id, input.action, 'A navigate action carries no fields.');
    } else {
      const method = (await claimantOf(ctx, action, input)) ?? ACTION_KIND_OWNERS.get(action.kind);
      if (!method?.act) throw invalidAction(frame.id, input.action, `Actions of kind "${action.kind}" are not available.`);
      const answer = await method.act(ctx, action, input);
      if (answer.stay) return this.respond(run, false);
      outcome = answer.outcome;
    }
    const moved = (outcome !== undefined && (await run.follow(step, outcome))) || (await run.follow(step, input.action));
    if (!moved) throw invalidAction(frame.id, input.action);
    return this.moveOn(run);
  }

  /** After a transition: passes invisible steps and renders the next visible one, or completes. */
  private async moveOn(run: FlowRun, keepResult = false): Promise<FlowResult> {
    run.touch();
    // A single use rides on the hand-off only when nothing else is written first: the flow
    // completes here, with no invisible step's work and no stacked flow to end.
    if (run.pendingUse) {
      const { step } = await run.current();
      if (!isCompleteStep(step) || run.entry.f.length > 1) await run.settleUse();
    }
    const done = await run.settle((next) => this.invisible(run, next));
    if (done) return this.respond(run, true, keepResult);
    // Extending the runs and rendering the next step do not wait for each other: one round trip less.
    const [result] = await Promise.all([this.respond(run, false), this.deps.definitions.extendRuns(run.entry.f.map((f) => f.id), new Date(run.entry.ex))]);
    return result;
  }

  /**
   * Goes on from the current step by an outcome that happened outside a submit (an SSO callback,
   * DESIGN §4.14). A flow it completes keeps its answer in the tombstone for the first
   * `GET /flow/{id}` (`locate`).
   */
  private async resume(run: FlowRun, outcome: string): Promise<FlowResult> {
    const { frame, step } = await run.current();
    frame.er = undefined;
    if (!(await run.follow(step, outcome))) throw invalidAction(frame.id, outcome, `The step has no "${outcome}" transition.`);
    return this.moveOn(run, true);
  }

  /**
   * A browser back from upstream (an SSO callback, DESIGN §4.14): the binding cookie
   * (`<flow id>.<secret>`) names the flow, the method checks its secret and answers; its outcome
   * is followed, or its error shown on the step. The browser goes to the method's `returnTo`
   * with `?flow=<id>`; the answer's cookie is the new `_zflow`.
   */
  async returnFromUpstream(method: AuthMethod, params: Record<string, string>, binding: string | undefined, ctx: RequestContext): Promise<{ location: string; cookie: string | null }> {
    const upstream = method.upstreamReturn!;
    const dot = binding?.indexOf('.') ?? -1;
    if (binding === undefined || dot <= 0) throw upstream.unusable(`no ${upstream.bindingCookie} cookie`);
    const run = await this.open(binding.slice(0, dot), ctx).catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'flow.not_found' ? upstream.unusable(`the flow ${upstream.bindingCookie} names is not in this browser`) : error;
    });
    const secret = binding.slice(dot + 1);
    if (!upstream.binds(run.frame.m?.[method.name], secret)) throw upstream.unusable(`the ${upstream.bindingCookie} cookie does not match the flow`);
    const { loaded, step } = await run.current();
    const answer = await method.resume!(new RunContext(run, loaded, step), params, secret);
    const backTo = (flowId: string) => {
      const url = new URL(answer.returnTo);
      url.searchParams.set('flow', flowId);
      return url.toString();
    };
    if ('error' in answer) {
      ctx.log?.(`${method.name} sign-in failed`, { flow_id: run.frame.id, ...answer.details, reason: answer.reason });
      run.frame.er = answer.error;
      return { location: backTo(run.frame.id), cookie: await this.persist(run) };
    }
    const result = await this.resume(run, answer.outcome);
    return { location: backTo(result.body.id), cookie: result.cookie };
  }

  /** The flow's state as it stands, written into a new cookie (an outcome that keeps the step). */
  private async persist(run: FlowRun): Promise<string> {
    await run.saveAttempt();
    return this.deps.codec.encode(run.state, this.deps.clock.now(), run.key);
  }

  /** A `submit` action: validate the step's fields, apply the risk rules and the captcha gate, run the step. */
  private async submitFields(ctx: RunContext, input: SubmitInput): Promise<string | undefined> {
    const { deps } = this;
    const { run, loaded, step } = ctx;
    const { frame } = run;
    const values = readFields(frame.id, step, loaded.schema, input.fields);
    const plan = planOf(step);
    const credentials = plan.checksCredentials;
    const identField = identifierField(step, loaded.schema);
    const accountKey = credentials && plan.guessedFactor !== undefined ? await guessedAccount(run, loaded.row.schema_id, identField && values.get(identField), plan.guessedFactor) : undefined;
    if (credentials) await run.guard.refuseWhenDenied(accountKey);
    if (await run.guard.needsCaptcha(step, credentials, accountKey)) {
      try {
        await deps.captcha.verify(run.projectId, input.captcha);
      } catch (error) {
        if (error instanceof AppError) error.details.gates = { captcha: await run.challenge() };
        if (error instanceof AppError) error.details.flow_id = frame.id;
        throw error;
      }
    }
    const outcome = await runStep(ctx, values, input);
    run.guard.forget();
    return outcome;
  }

  /** Work of an invisible step: it runs with what the flow collected so far. */
  private async invisible(run: FlowRun, step: FlowStepDef): Promise<string | undefined> {
    const { loaded } = await run.current();
    return runStep(new RunContext(run, loaded, step), new Map());
  }

  /** `payload` is optional for every type (the interface leaves the body open); one that is sent is checked. */
  async event(run: FlowRun, input: { type: string; payload?: Record<string, unknown> }): Promise<void> {
    if (input.type === 'fingerprint' && input.payload !== undefined && typeof input.payload.fingerprint !== 'string') {
      throw new AppError('req.invalid', 'A fingerprint event carries payload.fingerprint.', { errors: [{ path: 'body/payload/fingerprint', message: 'must be a string' }] });
    }
    if (input.payload !== undefined && JSON.stringify(input.payload).length > 8192) {
      throw new AppError('req.invalid', 'An event payload holds at most 8 KiB of JSON.', { errors: [{ path: 'body/payload', message: 'larger than 8192 bytes' }] });
    }
    const flowId = run.frame.id;
    // One replayed cookie could otherwise store events for the flow's whole life: each takes one of
    // the run's FLOW_EVENT_CAP in the statement that stores it, and past the cap nothing is stored.
    const gate = this.deps.definitions.eventGate(flowId, FLOW_EVENT_CAP, (taken) =>
      taken === undefined
        ? flowGone(flowId, 'its run record is gone')
        // The cap never resets (a new flow has its own), so there is no Retry-After to promise.
        : new AppError('auth.rate_limited', `This flow has sent its ${FLOW_EVENT_CAP} events; start a new flow to send more.`, { flow_id: flowId, limit: FLOW_EVENT_CAP }),
    );
    const event = { projectId: run.projectId, flowId, sessionId: run.entry.ss, type: input.type, payload: input.payload, ip: run.ctx.ip };
    await gate.write([this.deps.risk.recordEventQuery(event, gate.when)]);
  }

  private async body(run: FlowRun, step: FlowResponse['step']): Promise<FlowResponse> {
    return { id: run.frame.id, session_id: run.entry.ss, step, branding: await this.deps.flowSettings.branding(run.projectId) };
  }

  /** Renders the next visible step, or finishes the flow when the whole stack is complete. */
  private async respond(run: FlowRun, done: boolean, keepResult = false): Promise<FlowResult> {
    const { deps } = this;
    const { loaded, step } = await run.current();
    if (!done) {
      const captcha = await run.guard.needsCaptcha(step, planOf(step).checksCredentials);
      const [body] = await Promise.all([this.body(run, await renderStep(run, step, loaded, captcha)), run.saveAttempt()]);
      if (run.redirectUri !== undefined) body.redirect_uri = run.redirectUri;
      const result: FlowResult = { body, cookie: await deps.codec.encode(run.state, deps.clock.now(), run.key) };
      if (run.setCookies.length > 0) result.setCookies = run.setCookies;
      return result;
    }
    const view = await renderStep(run, step, loaded, false);
    const body = await this.body(run, view);
    if (view.behavior === 'redirect') {
      if (run.entry.r) body.redirect_uri = run.entry.r;
      else view.behavior = 'show';
    }
    return complete(deps, run, body, keepResult);
  }
}
