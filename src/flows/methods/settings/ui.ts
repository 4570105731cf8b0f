import type { MethodMarkup } from '../markup.js';
import type { StepView } from '../../view.js';

type Credential = { id: string; method: string; name: string | null; created_at: string };

export const settingsMarkup: MethodMarkup = {
  /** The settings step's `credential_id`: a choice among the user's own credentials (radio buttons), not an id to type. */
  field(field, step, state, { attrs, esc, fieldId, t }) {
    const credentials = (step as StepView & { credentials?: unknown }).credentials;
    if (field.name !== 'credential_id' || !Array.isArray(credentials) || credentials.length === 0) return undefined;
    const { errorKey } = state;
    const id = fieldId(field.name);
    const errorId = `${id}-error`;
    const options = (credentials as Credential[]).map((credential, index) => {
      const optionId = `${id}-${index}`;
      const method = t(`ui.credential.${credential.method}`);
      const label = credential.name ? `${method}: ${credential.name}` : method;
      const since = credential.created_at.slice(0, 10);
      return (
        `<div class="choice"><input${attrs({ id: optionId, type: 'radio', name: `f.${field.name}`, value: credential.id, required: field.required, checked: state.value === credential.id, autofocus: state.focus && index === 0, 'aria-describedby': errorKey ? errorId : undefined })}>` +
        `<label for="${esc(optionId)}">${esc(label)} <span class="since">${esc(t('ui.credential.since'))} <time datetime="${esc(credential.created_at)}">${esc(since)}</time></span></label></div>`
      );
    });
    const error = errorKey ? `<p class="field-error" id="${esc(errorId)}">${esc(t(errorKey))}</p>` : '';
    // The first radio carries the field's id, so the error summary's link lands on the group.
    return `<fieldset class="field choices" id="${esc(id)}"${errorKey ? ' aria-invalid="true"' : ''}><legend>${esc(t(field.text_key))}</legend>${options.join('')}${error}</fieldset>`;
  },
};
