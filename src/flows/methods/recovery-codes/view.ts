import { Type } from 'typebox';

declare module '../../view.js' {
  interface StepView {
    /** new recovery codes, in the response that generated them only */
    recovery_codes?: string[];
  }
}

export const recoveryCodesStepExtensions = {
  // after TOTP's enrollment (runtime/schemas.ts places): where clients have seen it
  recovery_codes: { at: 120, schema: Type.Optional(Type.Array(Type.String(), { description: 'new recovery codes, in the answer that made them only' })) },
};
