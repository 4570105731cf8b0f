import type { MethodMarkup } from '../markup.js';
import type { StepView } from '../../view.js';

/** TOTP enrollment (`step.totp`): the QR code an authenticator app scans, and the secret to type instead. */
export const totpMarkup: MethodMarkup = {
  extras(step, { attrs, esc, t }) {
    const totp = (step as StepView & { totp?: { secret: string; qr_svg: string } }).totp;
    if (!totp || typeof totp.qr_svg !== 'string') return '';
    const src = `data:image/svg+xml;base64,${Buffer.from(totp.qr_svg).toString('base64')}`;
    return `<figure class="totp"><img${attrs({ src, alt: t('ui.totp_qr'), width: 200, height: 200 })}><figcaption><code>${esc(totp.secret)}</code></figcaption></figure>`;
  },
};
