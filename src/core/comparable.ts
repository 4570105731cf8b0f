import type { ErrorObject, ValidateFunction } from 'ajv';

/**
 * Ajv compares objects for `const`, `enum` and `uniqueItems` with fast-deep-equal, which calls an
 * object's own `valueOf` or `toString` when it is not the inherited one. JSON can name a member
 * `valueOf` and give it any value, and then the comparison throws a TypeError instead of answering.
 */
export const UNCOMPARABLE: Readonly<ErrorObject> = Object.freeze({
  instancePath: '',
  schemaPath: '#',
  keyword: 'comparable',
  params: {},
  message: 'holds a member named valueOf or toString, which cannot be compared with the schema\'s const, enum or uniqueItems',
});

/**
 * Whether `error` is fast-deep-equal calling such a member (`a.valueOf is not a function`), rather
 * than a defect that merely mentions one (`reading 'toString'` of undefined).
 */
export function isComparisonFailure(error: unknown): boolean {
  return error instanceof TypeError && /\.(valueOf|toString) is not a function$/.test(error.message);
}

/**
 * The same validator, except that a comparison that throws is answered as invalid data with
 * {@link UNCOMPARABLE} in `errors`; any other throw (a defect, not data) still reaches the caller.
 */
export function comparisonSafe<T extends ValidateFunction>(validate: T): T {
  const guarded = ((data: unknown, context?: unknown) => {
    try {
      const valid = (validate as (data: unknown, context?: unknown) => boolean)(data, context);
      guarded.errors = validate.errors;
      return valid;
    } catch (error) {
      if (!isComparisonFailure(error)) throw error;
      // A copy: whoever reads `errors` may annotate them, and the constant is shared.
      guarded.errors = [{ ...UNCOMPARABLE }];
      return false;
    }
  }) as unknown as T;
  return Object.assign(guarded, { schema: validate.schema, schemaEnv: validate.schemaEnv });
}
