import { Type } from 'typebox';

/** `step.totp` (DESIGN §4.12): what the enrollment step shows; the module augmentation types it on `StepView`. */
export interface TotpEnrollmentView {
  secret: string;
  otpauth_uri: string;
  qr_svg: string;
}

declare module '../../view.js' {
  interface StepView {
    /** TOTP enrollment (DESIGN §4.12): the seed, the URI authenticator apps import, its QR code */
    totp?: TotpEnrollmentView;
  }
}

export const totpStepExtensions = {
  // after the step's warning (runtime/schemas.ts places): where clients have seen it
  totp: { at: 110, schema: Type.Optional(Type.Object({ secret: Type.String(), otpauth_uri: Type.String(), qr_svg: Type.String() }, { additionalProperties: true })) },
};
