import type { MarkupKit, MethodMarkup } from '../markup.js';
import type { StepAction, StepView } from '../../view.js';

type Provider = { id: string; name: string; template?: string };

/** The action's own text when it names the provider (`Connect {name}`), else "Continue with <name>". */
function ssoLabel(action: StepAction, name: string, t: MarkupKit['t']): string {
  const own = t(action.text_key, { name });
  return own.includes(name) ? own : t('ui.sso_with', { name });
}

export const ssoMarkup: MethodMarkup = {
  /**
   * One "Continue with …" button per provider of each `sso` action. The button's value names the
   * action and the provider (`<action>:<provider>`); it needs no field, so the browser's own
   * validation is off for it. Works without JavaScript: the answer is a redirect upstream.
   */
  actionGroup(step, { attrs, esc, t }, afterOthers) {
    const listed = (step as StepView & { sso_providers?: unknown }).sso_providers;
    const providers: Provider[] = Array.isArray(listed) ? listed : [];
    const buttons = step.actions
      .filter((action) => action.kind === 'sso')
      .flatMap((action) =>
        providers.map((provider) =>
          `<button${attrs({ type: 'submit', name: 'sso', value: `${action.name}:${provider.id}`, class: 'btn sso', formnovalidate: true, 'data-template': provider.template })}>${esc(ssoLabel(action, provider.name, t))}</button>`,
        ),
      );
    if (buttons.length === 0) return '';
    return `${afterOthers ? `<p class="divider"><span>${esc(t('ui.or'))}</span></p>` : ''}<div class="actions sso">${buttons.join('')}</div>`;
  },
};
