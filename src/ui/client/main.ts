/**
 * The hosted UI's only script (bundled by scripts/build-ui.mjs, served from /ui/assets): it
 * enhances server-rendered forms that work without it, except passkeys which need it.
 * - captcha: solves the ALTCHA proof of work (altcha-lib) and fills the `captcha` field;
 * - passkeys: runs the WebAuthn ceremony the server asked for and submits its answer.
 */
import { solveChallenge } from 'altcha-lib/v1';
import { browserSupportsWebAuthnAutofill, startAuthentication, startRegistration } from '@simplewebauthn/browser';

interface CaptchaConfig { algorithm: string; challenge: string; salt: string; max_number: number; signature: string }
interface Challenge { challenge_id: string; method: 'passkey' | 'passkey_register'; options: any; mediation?: string }

function data<T>(id: string): T | undefined {
  const element = document.getElementById(id);
  if (!element?.textContent) return undefined;
  try {
    return JSON.parse(element.textContent) as T;
  } catch {
    return undefined;
  }
}

async function captcha(): Promise<void> {
  const config = data<CaptchaConfig>('gh-captcha');
  const input = document.getElementById('f-captcha') as HTMLInputElement | null;
  const hint = document.getElementById('f-captcha-hint');
  if (!config || !input) return;
  input.readOnly = true;
  input.closest('.field')?.classList.add('solving');
  if (hint) hint.textContent = hint.dataset.solving ?? '';
  const solution = await solveChallenge(config.challenge, config.salt, config.algorithm, config.max_number).promise;
  if (!solution) return;
  const { algorithm, challenge, salt, signature } = config;
  input.value = btoa(JSON.stringify({ algorithm, challenge, number: solution.number, salt, signature }));
  input.closest('.field')?.classList.replace('solving', 'solved');
  if (hint) hint.textContent = hint.dataset.done ?? '';
}

function answer(form: HTMLFormElement, challenge: Challenge, proof: unknown, kind: string): void {
  const field = form.querySelector<HTMLInputElement>('input[name="challenge_response"]');
  const button = form.querySelector<HTMLButtonElement>(`button[data-passkey="${kind}"]`);
  if (!field) return;
  field.value = JSON.stringify({ challenge_id: challenge.challenge_id, method: challenge.method, proof });
  // requestSubmit(button) sends the button's action as a click would.
  form.requestSubmit(button ?? undefined);
}

async function passkeys(): Promise<void> {
  const challenge = data<Challenge>('gh-challenge');
  const form = document.querySelector<HTMLFormElement>('form[data-step]');
  if (!challenge || !form) return;
  try {
    if (challenge.mediation === 'conditional') {
      if (!(await browserSupportsWebAuthnAutofill())) return;
      answer(form, challenge, await startAuthentication({ optionsJSON: challenge.options, useBrowserAutofill: true }), 'passkey');
    } else if (challenge.method === 'passkey_register') {
      answer(form, challenge, await startRegistration({ optionsJSON: challenge.options }), 'passkey_register');
    } else {
      answer(form, challenge, await startAuthentication({ optionsJSON: challenge.options }), 'passkey');
    }
  } catch {
    // Cancelled or refused by the user or the authenticator: the page stays usable.
  }
}

void captcha();
void passkeys();
