import type { StepAction, StepField, StepView } from '../view.js';

/*
 * A method's part of the hosted pages (`AuthMethod.ui`): `ui/step.ts` renders the generic step and
 * asks the methods for their own markup at fixed places, so a new method's markup is written in
 * its folder and no file of `ui/` names it.
 */

/**
 * What `ui/step.ts` hands the hooks: its HTML helpers and the page's translator. Methods may not
 * import `ui/`, and every value that reaches markup must pass through `esc` or `attrs`.
 */
export interface MarkupKit {
  esc(value: unknown): string;
  /** ` name="value"` for each defined attribute; `true` writes a bare boolean attribute */
  attrs(values: Record<string, string | number | boolean | undefined | null>): string;
  /** JSON inside `<script type="application/json">` that `<` cannot close */
  jsonBlock(id: string, value: unknown): string;
  /** a field's element id (`name.given` -> `f-name-given`): the error summary links to it */
  fieldId(name: string): string;
  /** the page's translator: project overrides, the page's language, English, the key's last segment */
  t(key: string, vars?: Record<string, string>): string;
}

/** What the page knows of one field: the error text key of a rejected submit, the value typed before (never a secret), the focus. */
export interface FieldState {
  errorKey?: string;
  value?: string;
  focus: boolean;
}

/** What a method's own kind of button adds to the generic one. */
export interface ButtonMarkup {
  /** `formnovalidate`: the button needs no field filled in (a passkey ceremony) */
  noValidate?: boolean;
  /** `data-*` attributes, by name without the prefix, that the page's script looks for */
  data?: Record<string, string>;
}

/**
 * The hooks, each asked in registry order where the step's markup has its place. The step is read
 * defensively: its extensions are whatever the runtime sent, and an absent one renders nothing.
 */
export interface MethodMarkup {
  /** Above the form, after the step's warning: what the method's step extensions show (TOTP's QR code, new recovery codes). */
  extras?(step: StepView, kit: MarkupKit): string;
  /** A field the method shows its own way (settings: a choice among the user's credentials); undefined leaves it to the generic input. */
  field?(field: StepField, step: StepView, state: FieldState, kit: MarkupKit): string | undefined;
  /** The input's `autocomplete`, given the generic one (passkey autofill adds `webauthn`). */
  autocomplete?(field: StepField, step: StepView, generic: string | undefined): string | undefined;
  /** At the end of the form's inputs, after the captcha and before the buttons (a passkey challenge and the input for its answer). */
  formEnd?(step: StepView, kit: MarkupKit): string;
  /** Asked for each button of an action of the method's kinds (`actionKinds`). */
  button?(action: StepAction): ButtonMarkup;
  /**
   * With it, every action of the method's kinds leaves the step's buttons: the method draws them
   * as a group of its own after those (SSO: one button per provider). `afterOthers`: buttons come before.
   */
  actionGroup?(step: StepView, kit: MarkupKit, afterOthers: boolean): string;
}
