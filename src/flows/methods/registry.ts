import { describeFactor } from '../../sessions/levels.js';
import type { Lang, Texts } from '../../projects/ui-texts.js';
import type { TSchema } from 'typebox';
import type { SchemaView } from '../definitions/schema-view.js';
import type { DefinitionDraft } from './defaults-draft.js';
import type { FlowCookieState } from '../state.js';
import type { MethodContext, MethodKit } from './method.js';
import type { FlowAction } from '../definitions/types.js';
import type { SubmitInput } from '../view.js';
import type { AuthMethod, MethodField, StepHook } from './declaration.js';
import type { MethodMarkup } from './markup.js';
import { otpMethod } from './otp/index.js';
import { passkeyMethod } from './passkey/index.js';
import { passwordMethod } from './password/index.js';
import { recoveryCodeMethod } from './recovery/index.js';
import { recoveryCodeFactorMethod } from './recovery-codes/index.js';
import { settingsMethod } from './settings/index.js';
import { ssoMethod } from './sso/index.js';
import { samlMethod } from './saml/index.js';
import { totpMethod } from './totp/index.js';

/** Every sign-in method the flow engine can run: adding a method is one folder and one line here. */
const BUILT_IN: readonly AuthMethod[] = [passwordMethod, recoveryCodeMethod, passkeyMethod, otpMethod, totpMethod, recoveryCodeFactorMethod, ssoMethod, samlMethod, settingsMethod];

const registered: AuthMethod[] = [];
export const METHODS: readonly AuthMethod[] = registered;

/*
 * The catalog as tables the engine reads on a request's path (Map and Set lookups, no call into
 * this file), filled by `registerMethod`. `generation` counts registrations: a plan the engine
 * keeps per step definition (runtime/fields.ts) is rebuilt once it changes.
 */
const byField = new Map<string, { method: AuthMethod; field: MethodField }>();
const byActionKind = new Map<string, AuthMethod>();
const hooks = new Map<string, { method: AuthMethod; hook: StepHook }>();
const budgeted = new Set<string>();
const boundPurposes = new Set<string>();
const legacyKeys = new Set<string>();
const screens: AuthMethod[] = [];
const claimants: AuthMethod[] = [];
/** the method owning a step field reference (`x-auth-methods#password`) */
export const FIELD_OWNERS: ReadonlyMap<string, { method: AuthMethod; field: MethodField }> = byField;
/** the method handling an action kind other than `submit` and `navigate` */
export const ACTION_KIND_OWNERS: ReadonlyMap<string, AuthMethod> = byActionKind;
/** the `on_success` hooks the methods provide, by name */
export const HOOKS: ReadonlyMap<string, { method: AuthMethod; hook: StepHook }> = hooks;
/** the methods that see a step's values before they are verified (`screen`), in registry order */
export const SCREENS: readonly AuthMethod[] = screens;
/** the methods whose secret has an account budget (`budget: 'account'`), by name */
export const BUDGETED: ReadonlySet<string> = budgeted;
/** flow purposes that run bound to the caller's session (`sessionBoundPurposes`) */
export const SESSION_BOUND_PURPOSES: ReadonlySet<string> = boundPurposes;
/** frame keys a cookie from before slots may hold (`legacyFrameKey(s)`): `upgradeFrames` moves them */
export const LEGACY_FRAME_KEYS: ReadonlySet<string> = legacyKeys;
/** how many registrations there were: what is derived from the catalog (step plans, the UI's texts) is rebuilt when it changes */
export let generation = 0;

/**
 * Adds a method beside the built-in ones: a plug-in, or a test's throw-away method. Call it before
 * the app is built (the flows module reads the budgeted factors once). Names, fields, action kinds
 * and hooks must be new.
 */
export function registerMethod(method: AuthMethod): void {
  const taken = METHODS.some((m) => m.name === method.name) || (method.field && byField.has(method.field.ref)) || method.actionKinds?.some((kind) => byActionKind.has(kind)) || method.hooks?.some((hook) => hooks.has(hook.name));
  if (taken) throw new Error(`The sign-in method "${method.name}" repeats a name, field, action kind or hook of a registered one.`);
  refuseRepeatedTexts(method);
  registered.push(method);
  for (const [factor, description] of Object.entries(method.factors ?? {})) describeFactor(factor, description);
  generation += 1;
  if (method.budget === 'account') budgeted.add(method.name);
  for (const purpose of method.sessionBoundPurposes ?? []) boundPurposes.add(purpose);
  for (const key of [...(method.legacyFrameKey !== undefined ? [method.legacyFrameKey] : []), ...(method.legacyFrameKeys ?? [])]) legacyKeys.add(key);
  if (method.field) byField.set(method.field.ref, { method, field: method.field });
  if (method.screen) screens.push(method);
  if (method.claimsAction) claimants.push(method);
  for (const kind of method.actionKinds ?? []) byActionKind.set(kind, method);
  for (const hook of method.hooks ?? []) hooks.set(hook.name, { method, hook });
}
for (const method of BUILT_IN) registerMethod(method);

/** The method that takes over this action from its kind's owner (`claimsAction`), if any. */
export async function claimantOf(ctx: MethodContext, action: FlowAction, input: SubmitInput): Promise<AuthMethod | undefined> {
  for (const method of claimants) if (await method.claimsAction!(ctx, action, input)) return method;
  return undefined;
}

export const budgetedFactors = (): string[] => [...budgeted];

/** Action kinds every step may use without a method. */
export const ENGINE_ACTION_KINDS = ['submit', 'navigate'] as const;

/** `on_success` hooks the engine itself runs. */
export const ENGINE_HOOKS = ['create_user'] as const;

export const knownActionKinds = (): string[] => [...ENGINE_ACTION_KINDS, ...byActionKind.keys()];
/** Outcome triggers the methods' work may ask for, beside the engine's own. */
export const methodOutcomes = (): string[] => METHODS.flatMap((method) => method.outcomes ?? []);

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

/** Every registered method's texts in `lang` (`AuthMethod.texts`): the hosted UI merges them into its catalogue (`ui/i18n.ts`). */
export const methodTexts = (lang: Lang): Texts => Object.assign({}, ...METHODS.map((method) => method.texts?.[lang] ?? {}));

/** Two methods declaring one key would leave one saying the other's words, by registry order: refused like a repeated field. */
function refuseRepeatedTexts(method: AuthMethod): void {
  const keysOf = (m: AuthMethod) => Object.values(m.texts ?? {}).flatMap((texts) => Object.keys(texts));
  const own = new Set(keysOf(method));
  const repeated = new Set(METHODS.flatMap(keysOf).filter((key) => own.has(key)));
  if (repeated.size > 0) throw new Error(`The sign-in method "${method.name}" repeats text keys of a registered one: ${[...repeated].join(', ')}.`);
}
/** The methods' markup hooks for the hosted pages (`ui`), in registry order: the order they render in. */
export const methodMarkups = (): readonly MethodMarkup[] => METHODS.flatMap((method) => (method.ui ? [method.ui] : []));

/** The markup hooks of the method owning an action kind: its buttons are drawn its way. */
export const markupOfActionKind = (kind: string): MethodMarkup | undefined => byActionKind.get(kind)?.ui;
/** Applies every method's part of the default definitions to `draft`, in registry order (`definitions/defaults.ts`). */
export function applyMethodDefaults(draft: DefinitionDraft, schema: SchemaView): void {
  for (const method of METHODS) method.defaults?.(draft, schema);
}
/**
 * The `x-auth-methods` keys user schemas may hold (`SchemaCompiler`'s input, read when the container
 * is built): each method's name where it needs one, with its options, then its `alsoKeys`.
 */
export const schemaKeys = (): { name: string; options?: Readonly<Record<string, unknown>> }[] =>
  METHODS.flatMap((method) => [
    ...(method.needsSchemaKey ? [{ name: method.name, options: method.schemaKey?.options }] : []),
    ...(method.schemaKey?.alsoKeys ?? []).map((name) => ({ name })),
  ]);
/** The step extensions the methods declare (`stepExtensions`), in registry order: `runtime/schemas.ts` places them. */
export const stepExtensions = (): { key: string; schema: TSchema; at?: number }[] =>
  METHODS.flatMap((method) => Object.entries(method.stepExtensions ?? {}).map(([key, extension]) => ({ key, ...extension })));
/** The submit body members the methods declare (`submitMembers`), in registry order. */
export const submitMembers = (): [string, TSchema][] => METHODS.flatMap((method) => Object.entries(method.submitMembers ?? {}));
/** The flow definition step properties the methods declare (`stepProperties`), in registry order. */
export const stepProperties = (): [string, TSchema][] => METHODS.flatMap((method) => Object.entries(method.stepProperties ?? {}));
/** Builds every method's own services (`createServices`) once, by method name: the flows module hands them to the runtime. */
export const createMethodServices = (kit: MethodKit): ReadonlyMap<string, unknown> =>
  new Map(METHODS.flatMap((method) => (method.createServices ? [[method.name, method.createServices(kit)] as const] : [])));
