import type { MethodContext } from '../method.js';

/** An upstream sign-in on its way: what its callback is checked against. */
export interface PendingSso {
  /** provider id */
  p: string;
  /** the `state` sent upstream */
  st: string;
  /** the `nonce` sent upstream */
  n: string;
  /** the PKCE code verifier */
  v: string;
  /** SHA-256 (base64url) of the `_zsso` binding secret */
  b: string;
  /** where the browser goes back to (checked at the submit) */
  r: string;
  /** expires at, epoch ms */
  x: number;
}

/** An upstream identity the callback proved but that is linked to no user yet. */
export interface PendingIdentity {
  /** provider id */
  p: string;
  /** upstream subject */
  s: string;
  /** the upstream e-mail, when the provider said it is verified */
  e?: string;
  /** the link's display name */
  n: string;
  /** the property whose address a code must prove before the link is written (the new user kept one the provider did not verify) */
  w?: string;
}

/**
 * The SSO method's state in the flow frame (slot `sso`; before slots, the frame keys `so` and
 * `si`, whose names it keeps so an old cookie's values move in as they are).
 */
export interface SsoState {
  /** an upstream sign-in started on the current step, until its callback returns (DESIGN §4.14) */
  so?: PendingSso;
  /** an upstream identity that returned unlinked: linked by `link_sso` or with the user `create_user` writes */
  si?: PendingIdentity;
}

/** Reads and writes the two parts of the method's slot; the slot goes when both are empty. */
export function ssoState(ctx: MethodContext) {
  const slot = ctx.state<SsoState>('sso');
  const put = (next: SsoState) => {
    const kept = Object.fromEntries(Object.entries(next).filter(([, value]) => value !== undefined)) as SsoState;
    if (Object.keys(kept).length === 0) slot.clear();
    else slot.set(kept);
  };
  return {
    started: (): PendingSso | undefined => slot.get()?.so,
    identity: (): PendingIdentity | undefined => slot.get()?.si,
    start(pending: PendingSso | undefined): void {
      put({ ...slot.get(), so: pending });
    },
    hold(identity: PendingIdentity | undefined): void {
      put({ ...slot.get(), si: identity });
    },
  };
}
