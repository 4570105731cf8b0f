import type { MethodMarkup } from '../markup.js';
import type { StepView } from '../../view.js';

/** New recovery codes (`step.recovery_codes`), in the one answer that generated them. */
export const recoveryCodesMarkup: MethodMarkup = {
  extras(step, { esc }) {
    const codes = (step as StepView & { recovery_codes?: unknown }).recovery_codes;
    if (!Array.isArray(codes)) return '';
    return `<ul class="codes">${codes.map((code) => `<li><code>${esc(code)}</code></li>`).join('')}</ul>`;
  },
};
