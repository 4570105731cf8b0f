import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { comparisonSafe, UNCOMPARABLE } from './comparable.js';

const ajv = new Ajv2020({ allErrors: true, strict: false });

describe('comparisonSafe', () => {
  it('answers data that fast-deep-equal cannot compare as invalid, for const, enum and uniqueItems', () => {
    const shadowing: Array<Record<string, unknown>> = [{ valueOf: false }, { toString: 1 }, { valueOf: 'x', toString: null }];
    const schemas: Array<Record<string, unknown>> = [{ const: {} }, { enum: ['a', { b: 1 }] }, { type: 'array', uniqueItems: true }];
    for (const schema of schemas) {
      const raw = ajv.compile(schema);
      const safe = comparisonSafe(raw);
      for (const member of shadowing) {
        const data = schema.type === 'array' ? [member, { ...member }] : member;
        // The defect the guard exists for: without it the validator throws.
        expect(() => raw(data)).toThrow(TypeError);
        expect(safe(data)).toBe(false);
        expect(safe.errors).toEqual([UNCOMPARABLE]);
      }
    }
  });

  it('leaves every other answer and its errors as Ajv gave them', () => {
    const safe = comparisonSafe(ajv.compile({ type: 'object', const: { a: 1 } }));
    expect(safe({ a: 1 })).toBe(true);
    expect(safe.errors).toBeNull();
    expect(safe({ a: 2 })).toBe(false);
    expect(safe.errors?.[0]?.keyword).toBe('const');
  });

  it('lets a throw that is not a failed comparison through', () => {
    const broken = Object.assign(() => {
      throw new TypeError('undefined is not iterable');
    }, { errors: null, schema: {}, schemaEnv: undefined });
    expect(() => comparisonSafe(broken as unknown as ValidateFunction)({})).toThrow('not iterable');
    // A defect that only mentions toString is not mistaken for data that cannot be compared.
    const defect = Object.assign(() => (undefined as unknown as { toString(): string }).toString(), { errors: null, schema: {}, schemaEnv: undefined });
    expect(() => comparisonSafe(defect as unknown as ValidateFunction)({})).toThrow("reading 'toString'");
  });
});
