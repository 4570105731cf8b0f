import type { DraftAttempt } from '../../attempts/drafts.js';
import type { Attempt } from '../../attempts/service.js';
import { AppError } from '../../core/errors.js';
import type { SchemaView } from '../definitions/schema-view.js';
import type { LoadedDefinition } from '../definitions/snapshot.js';
import { isCompleteStep, isInvisibleStep, type FlowStepDef } from '../definitions/types.js';
import type { CaptchaGateView } from '../gates/captcha.js';
import { FLOW_TTL_MS, flowCompleted, topFrame, type FlowCookieState, type FlowEntry, type FlowFrame } from '../state.js';
import type { PendingUse, ProvenFactor } from '../methods/method.js';
import { flowGone, invalidAction } from '../errors.js';
import type { FlowDeps } from './deps.js';
import { RequestGuard } from './guard.js';
import type { RequestContext } from './types.js';
import type { SideCookie, StepView } from '../view.js';

const MAX_HISTORY = 20;
const MAX_STACK = 5;
const MAX_HOPS = 50;

export interface Loaded extends LoadedDefinition {
  schema: SchemaView;
}

/**
 * One request's view of one concurrent flow: its entry in the cookie, the request, the loaded
 * definitions, and the request's risk view (`guard`, read once).
 */
export class FlowRun {
  private readonly loaded = new Map<string, Loaded>();
  readonly guard = new RequestGuard(this);
  /** The auth attempt as this request last wrote (or drafted) it (saves reading it back to complete it). */
  attempt?: Attempt;
  /** The attempt this request created, not yet written: handed off with the flow's end, or saved (`saveAttempt`). */
  draft?: DraftAttempt;
  /** Set when this request changed the flow state while only rendering (a challenge was issued). */
  stateChanged = false;
  /** Step extensions a method produced in this request (e.g. the challenge of a passkey action). */
  readonly extensions: Partial<StepView> = {};
  /** Where the answer sends the browser (an SSO action: the upstream authorization URL). */
  redirectUri?: string;
  /** Cookies a method sets with this answer (the SSO binding). */
  readonly setCookies: SideCookie[] = [];
  /** The credential methods of a user, when this request read them anyway (with the password): saves a read. */
  userMethods?: { userId: string; methods: Set<string> };
  /** A single use a method verified but has not written (see PendingUse). */
  pendingUse?: PendingUse;

  constructor(
    readonly deps: FlowDeps,
    readonly state: FlowCookieState,
    readonly key: string,
    readonly entry: FlowEntry,
    readonly ctx: RequestContext,
  ) {}

  get projectId(): string {
    return this.entry.p;
  }

  get frame(): FlowFrame {
    return topFrame(this.entry);
  }

  /**
   * Why the run could not create its user or complete: its session was deleted (404
   * `sess.not_found`), else it completed already (410 `flow.completed`).
   */
  async endedBecause(): Promise<AppError> {
    const gone = await this.deps.sessions.get(this.projectId, this.entry.ss).then(
      () => undefined,
      (error: unknown) => error,
    );
    return gone instanceof AppError ? gone : flowCompleted(this.frame.id);
  }

  async load(frame: FlowFrame): Promise<Loaded> {
    const cached = this.loaded.get(frame.d);
    if (cached) return cached;
    const definition = await this.deps.definitions.load(this.projectId, frame.d);
    if (!definition) throw flowGone(frame.id, 'its definition was deleted');
    const schema = await this.deps.schemas.resolve(this.projectId, definition.row.schema_id);
    if (!schema) throw flowGone(frame.id, 'its user schema is gone');
    const loaded = { ...definition, schema };
    this.loaded.set(frame.d, loaded);
    return loaded;
  }

  async current(): Promise<{ frame: FlowFrame; loaded: Loaded; step: FlowStepDef }> {
    const frame = this.frame;
    const loaded = await this.load(frame);
    const step = loaded.def.steps.find((s) => s.name === frame.s);
    if (!step) throw flowGone(frame.id, 'its definition changed');
    return { frame, loaded, step };
  }

  /**
   * A new frame for a definition, registered as a live run (keeps the definition in use). A switch
   * or pivot stores a run row as a start does, so it takes the same per-IP budget in the statement
   * that writes it (DESIGN §4.6a): one cookie cannot switch back and forth to grow `flow_runs`.
   */
  async newFrame(loaded: LoadedDefinition, purpose: string | undefined): Promise<FlowFrame> {
    const frame = this.frameFor(loaded, purpose);
    const gate = this.deps.flowStarts.gate(this.projectId, this.ctx.ip, (await this.guard.riskRules()).ip_flow_starts_per_minute);
    await this.deps.definitions.startRun(this.projectId, frame.id, loaded.row.id, this.entry.ss, new Date(this.entry.ex), gate);
    return frame;
  }

  /** A new frame for a definition, not yet registered as a run (`newFrame` registers it). */
  frameFor(loaded: LoadedDefinition, purpose: string | undefined): FlowFrame {
    const entries = Object.entries(loaded.def.purposes);
    const chosen = (purpose !== undefined ? entries.find(([p]) => p === purpose) : undefined) ?? entries[0];
    return { id: this.deps.ids.next('flow'), d: loaded.row.id, pu: chosen[0], s: chosen[1], c: {}, h: [] };
  }

  /** Follows the transition of `trigger` from the current step; false when the step has none. */
  async follow(step: FlowStepDef, trigger: string): Promise<boolean> {
    const transition = step.transitions?.[trigger];
    if (!transition) return false;
    const frame = this.frame;
    if (transition.action === undefined) {
      frame.h = [...frame.h, frame.s].slice(-MAX_HISTORY);
      frame.s = transition.target;
      return true;
    }
    const target = await this.deps.definitions.target(this.projectId, transition.target, this.entry.ap);
    if (!target) throw invalidAction(frame.id, trigger, `No active flow definition "${transition.target}" to ${transition.action} to.`);
    const purpose = target.def.purposes[transition.target] !== undefined ? transition.target : undefined;
    if (transition.action === 'switch') {
      await this.deps.definitions.endRun(frame.id);
      this.entry.f[this.entry.f.length - 1] = await this.newFrame(target, purpose);
      return true;
    }
    if (this.entry.f.length >= MAX_STACK) throw invalidAction(frame.id, trigger, 'Too many nested flows.');
    this.entry.f.push(await this.newFrame(target, purpose));
    return true;
  }

  /**
   * Passes invisible steps (running their work and `next`) and pops completed stacked flows back
   * to their parent. Returns true when the whole stack is complete.
   */
  async settle(work: (step: FlowStepDef) => Promise<string | undefined>): Promise<boolean> {
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const { frame, step } = await this.current();
      if (isInvisibleStep(step)) {
        const outcome = await work(step);
        if (!(outcome !== undefined && (await this.follow(step, outcome))) && !(await this.follow(step, 'next'))) {
          throw flowGone(frame.id, `step "${step.name}" has no way out`);
        }
        continue;
      }
      if (isCompleteStep(step)) {
        if (this.entry.f.length > 1) {
          await this.deps.definitions.endRun(frame.id);
          this.entry.f.pop();
          continue;
        }
        return true;
      }
      return false;
    }
    throw flowGone(this.frame.id, 'its definition loops');
  }

  challenge(): Promise<CaptchaGateView> {
    return this.deps.captcha.challenge(this.projectId);
  }

  /** The identifier value collected so far in the frame (lock-out keys, recovery), or ''. */
  collectedIdentifier(): string {
    const loaded = this.loaded.get(this.frame.d);
    for (const field of loaded?.schema.identifiers ?? []) {
      const value = this.frame.c[field];
      if (value !== undefined) return value;
    }
    return '';
  }

  /**
   * Records a proven factor on the flow's auth attempt, creating the attempt with it when the flow
   * has none. An attempt that expired, or that proves another user (the flow went back and
   * identified someone else), is replaced by a new one.
   */
  async recordFactor(factor: ProvenFactor, userId: string): Promise<void> {
    const { attempts, drafts } = this.deps;
    const input = { ...factor, userId };
    const write = async () => {
      if (this.draft && this.entry.a === this.draft.row.id) this.setDraft(drafts.withFactor(this.draft, input));
      else if (this.entry.a) this.attempt = await attempts.recordFactor(this.projectId, this.entry.a, input);
      else this.setDraft(drafts.start(this.projectId, { sessionId: this.entry.ss, firstFactor: input }));
    };
    try {
      await write();
    } catch (error) {
      if (!(error instanceof AppError) || !['att.not_found', 'att.invalid_state'].includes(error.code)) throw error;
      this.entry.a = undefined;
      await write();
    }
  }

  private setDraft(draft: DraftAttempt): void {
    this.draft = draft;
    this.attempt = draft.attempt;
    this.entry.a = draft.row.id;
  }

  /** Writes the attempt this request drafted; called before a cookie that names it is sealed. */
  async saveAttempt(): Promise<void> {
    await this.settleUse();
    const { draft } = this;
    if (!draft) return;
    this.draft = undefined;
    await this.deps.drafts.save(draft);
  }

  /** Writes the pending single use on its own: before any other write of the request. */
  async settleUse(): Promise<void> {
    const use = this.pendingUse;
    this.pendingUse = undefined;
    await use?.alone();
  }

  /**
   * Puts the flow's entry back as `snapshot` holds it and forgets what this request drafted: a
   * refusal found only at the write, after the step had moved on.
   */
  rollBack(snapshot: FlowEntry): void {
    for (const key of Object.keys(this.entry)) delete (this.entry as unknown as Record<string, unknown>)[key];
    Object.assign(this.entry, structuredClone(snapshot));
    this.draft = undefined;
    this.attempt = undefined;
    this.pendingUse = undefined;
  }

  touch(): void {
    this.entry.ex = this.deps.clock.now().getTime() + FLOW_TTL_MS;
  }
}
