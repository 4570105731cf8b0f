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
export const METHODS: readonly AuthMethod[] = [passwordMethod, recoveryCodeMethod, passkeyMethod, otpMethod, totpMethod, recoveryCodeFactorMethod, ssoMethod, settingsMethod];

const byField = new Map<string, { method: AuthMethod; field: MethodField }>();
const byActionKind = new Map<string, AuthMethod>();
const hooks = new Map<string, { method: AuthMethod; hook: StepHook }>();
for (const method of METHODS) {
  if (method.field) byField.set(method.field.ref, { method, field: method.field });
  for (const kind of method.actionKinds ?? []) byActionKind.set(kind, method);
  for (const hook of method.hooks ?? []) hooks.set(hook.name, { method, hook });
}

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

export const knownHooks = (): string[] => [...ENGINE_HOOKS, ...hooks.keys()];
