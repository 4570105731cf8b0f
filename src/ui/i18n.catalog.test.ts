import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDefinitions } from '../flows/definitions/defaults.js';
import { schemaView } from '../flows/definitions/schema-view.js';
import type { FlowDefinitionDoc } from '../flows/definitions/types.js';
import { stepFields } from '../flows/runtime/fields.js';
import { LANGS } from '../projects/ui-texts.js';
import { defaultUserSchema } from '../schemas/default-schema.js';
import { hasBuiltInText } from './i18n.js';

/** Every text key a default definition or a method's refusal can put on a page, from the definitions and the sources. */
function keysInUse(): string[] {
  const document = defaultUserSchema() as { 'x-auth-methods': Record<string, { enabled: boolean }> };
  // Every method on, so that every default step appears (e-mail codes are off in the default schema).
  for (const method of Object.values(document['x-auth-methods'])) method.enabled = true;
  const view = schemaView('sch_catalog', 'https://schemas.example/catalog.json', document);
  const keys = new Set<string>();
  for (const definition of defaultDefinitions(view) as FlowDefinitionDoc[]) {
    for (const step of definition.steps) {
      keys.add(step.texts?.title_key ?? `step.${step.name}.title`);
      keys.add(step.texts?.description_key ?? `step.${step.name}.description`);
      for (const field of stepFields(step, view)) keys.add(field.text_key);
      for (const action of step.actions ?? []) keys.add(action.text_key ?? `action.${action.name}`);
    }
  }
  const root = new URL('..', import.meta.url).pathname;
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((entry) => (statSync(join(dir, entry)).isDirectory() ? walk(join(dir, entry)) : [join(dir, entry)]));
  for (const file of walk(root).filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.includes('test-kit'))) {
    // A trace attribute such as OpenTelemetry's `error.type` is not a text key.
    for (const match of readFileSync(file, 'utf8').matchAll(/(?<!setAttribute\()'((?:error|warning)\.[a-z_]+)'/g)) keys.add(match[1]);
  }
  return [...keys].sort();
}

describe('the hosted UI text catalogue', () => {
  it('has every key the default definitions and the methods use, in every language', () => {
    const keys = keysInUse();
    expect(keys.length).toBeGreaterThan(40);
    for (const lang of LANGS) expect(keys.filter((key) => !hasBuiltInText(lang, key)), lang).toEqual([]);
  });
});
