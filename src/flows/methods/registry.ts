import { describeFactor } from '../../sessions/levels.js';
import type { FlowStepDef } from '../definitions/types.js';
import type { FlowCookieState } from '../state.js';
import type { AuthMethod, MethodField, StepHook } from './method.js';
import { otpMethod } from './otp/index.js';
import { passkeyMethod } from './passkey/index.js';
import { passwordMethod } from './password/index.js';
import { recoveryCodeMethod } from './recovery/index.js';
import { recoveryCodeFactorMethod } from './recovery-codes/index.js';
import { settingsMethod } from './settings/index.js';
import { ssoMethod } from './sso/index.js';
import { totpMethod } from './totp/index.js';

/** Every sign-in method the flow engine can run: adding a method is one folder and one line here. */
const BUILT_IN: readonly AuthMethod[] = [passwordMethod, recoveryCodeMethod, passkeyMethod, otpMethod, totpMethod, recoveryCodeFactorMethod, ssoMethod, settingsMethod];

const registered: AuthMethod[] = [];
// Plans per step (renderersOf, followUpsOf below): a registration starts them afresh.
let renderers = new WeakMap<FlowStepDef, readonly AuthMethod[]>();
let followUps = new WeakMap<FlowStepDef, readonly AuthMethod[]>();
export const METHODS: readonly AuthMethod[] = registered;

const byField = new Map<string, { method: AuthMethod; field: MethodField }>();
const byActionKind = new Map<string, AuthMethod>();
const hooks = new Map<string, { method: AuthMethod; hook: StepHook }>();

/**
 * Adds a method beside the built-in ones: a plug-in, or a test's throw-away method. Call it before
 * the app is built (the flows module reads the budgeted factors once). Names, fields, action kinds
 * and hooks must be new.
 */
export function registerMethod(method: AuthMethod): void {
  const taken = METHODS.some((m) => m.name === method.name) || (method.field && byField.has(method.field.ref)) || method.actionKinds?.some((kind) => byActionKind.has(kind)) || method.hooks?.some((hook) => hooks.has(hook.name));
  if (taken) throw new Error(`The sign-in method "${method.name}" repeats a name, field, action kind or hook of a registered one.`);
  registered.push(method);
  for (const [factor, description] of Object.entries(method.factors ?? {})) describeFactor(factor, description);
  renderers = new WeakMap();
  followUps = new WeakMap();
  if (method.field) byField.set(method.field.ref, { method, field: method.field });
  for (const kind of method.actionKinds ?? []) byActionKind.set(kind, method);
  for (const hook of method.hooks ?? []) hooks.set(hook.name, { method, hook });
}
for (const method of BUILT_IN) registerMethod(method);

/** The methods whose secret has an account budget (`budget: 'account'`): proven only through `checkSecret`. */
/*
 * Which methods render on a step and which may ask for a follow-up there, asked once per step
 * definition (loaded definitions are frozen and shared, so the step object is the key): a warm
 * request calls only the methods its step names, never every method.
 */

function planned(cache: WeakMap<FlowStepDef, readonly AuthMethod[]>, step: FlowStepDef, applies: (method: AuthMethod) => boolean): readonly AuthMethod[] {
  let methods = cache.get(step);
  if (methods === undefined) {
    methods = METHODS.filter(applies);
    cache.set(step, methods);
  }
  return methods;
}

/** The methods whose `render` adds to `step` (`rendersOn`; a method without it renders on every step). */
export const renderersOf = (step: FlowStepDef): readonly AuthMethod[] => planned(renderers, step, (m) => m.render !== undefined && (m.rendersOn?.(step) ?? true));

/** The methods whose `followUp` may ask for an outcome on `step` (`followsUpOn`; without it, on every step). */
export const followUpsOf = (step: FlowStepDef): readonly AuthMethod[] => planned(followUps, step, (m) => m.followUp !== undefined && (m.followsUpOn?.(step) ?? true));

export const budgetedFactors = (): string[] => METHODS.filter((method) => method.budget === 'account').map((method) => method.name);
export const isBudgetedFactor = (name: string): boolean => METHODS.some((method) => method.name === name && method.budget === 'account');

/** The method owning a step field reference (`x-auth-methods#password`), if any. */
export const methodOfField = (ref: string) => byField.get(ref);

/** The method handling an action kind other than `submit` and `navigate`. */
export const methodOfActionKind = (kind: string): AuthMethod | undefined => byActionKind.get(kind);

/** The `on_success` hook of that name a method provides. */
export const hookNamed = (name: string) => hooks.get(name);

/** Action kinds every step may use without a method. */
export const ENGINE_ACTION_KINDS = ['submit', 'navigate'] as const;

/** `on_success` hooks the engine itself runs. */
export const ENGINE_HOOKS = ['create_user'] as const;

export const knownActionKinds = (): string[] => [...ENGINE_ACTION_KINDS, ...byActionKind.keys()];
/** Outcome triggers the methods' work may ask for, beside the engine's own. */
export const methodOutcomes = (): string[] => METHODS.flatMap((method) => method.outcomes ?? []);

/** Whether flows of this purpose run bound to the caller's signed-in session (the settings flow). */
export const isSessionBound = (purpose: string): boolean => METHODS.some((method) => method.sessionBoundPurposes?.includes(purpose) ?? false);

/**
 * Moves method state a cookie written before slots kept under a frame key of its own into the
 * method's slot (`legacyFrameKey`), so a flow in progress across the upgrade keeps it.
 */
export function upgradeFrames(state: FlowCookieState): FlowCookieState {
  for (const entry of Object.values(state.flows)) {
    for (const frame of entry.f) {
      const keys = frame as unknown as Record<string, unknown>;
      const moved = new Set<string>();
      // Every method that declares the key gets its value (`oc` was shared by both code methods).
      for (const method of METHODS) {
        const key = method.legacyFrameKey;
        if (key !== undefined && keys[key] !== undefined) {
          frame.m = { ...frame.m, [method.name]: keys[key] };
          moved.add(key);
        }
        const held = (method.legacyFrameKeys ?? []).filter((old) => keys[old] !== undefined);
        if (held.length === 0) continue;
        frame.m = { ...frame.m, [method.name]: Object.fromEntries(held.map((old) => [old, keys[old]])) };
        for (const old of held) moved.add(old);
      }
      for (const key of moved) delete keys[key];
    }
  }
  return state;
}

export const knownHooks = (): string[] => [...ENGINE_HOOKS, ...hooks.keys()];
