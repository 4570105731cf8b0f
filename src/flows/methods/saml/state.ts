import type { MethodContext } from '../method.js';

/** An AuthnRequest on its way: what the ACS checks the response against. */
export interface PendingSaml {
  /** provider id */
  p: string;
  /** the AuthnRequest's ID: the response's (signed) InResponseTo must be this */
  i: string;
  /** SHA-256 (base64url) of the `_zsaml` binding secret */
  b: string;
  /** where the browser goes back to */
  r: string;
  /** expires at, epoch ms */
  x: number;
}

/** A SAML identity the ACS proved but that is linked to no user yet. */
export interface PendingIdentity {
  /** provider id */
  p: string;
  /** the NameID */
  s: string;
  /** the assertion's e-mail, when the operator trusts it (`link: verified_email`) */
  e?: string;
  /** the link's display name */
  n: string;
  /** the property whose address a code must prove before the link is written */
  w?: string;
}

/** The method's slot in the flow frame (in the encrypted `_zflow`). */
export interface SamlState {
  so?: PendingSaml;
  si?: PendingIdentity;
}

/** Reads and writes the two parts of the slot; the slot goes when both are empty. */
export function samlState(ctx: MethodContext) {
  const slot = ctx.state<SamlState>('saml');
  const put = (next: SamlState) => {
    const kept = Object.fromEntries(Object.entries(next).filter(([, value]) => value !== undefined)) as SamlState;
    if (Object.keys(kept).length === 0) slot.clear();
    else slot.set(kept);
  };
  return {
    started: (): PendingSaml | undefined => slot.get()?.so,
    identity: (): PendingIdentity | undefined => slot.get()?.si,
    start(pending: PendingSaml | undefined): void {
      put({ ...slot.get(), so: pending });
    },
    hold(identity: PendingIdentity | undefined): void {
      put({ ...slot.get(), si: identity });
    },
  };
}
