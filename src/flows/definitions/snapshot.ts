import { deepFreeze } from '../../core/freeze.js';
import type { FlowDefinitionRow } from './store.js';
import type { FlowDefinitionDoc } from './types.js';

/** A stored definition with its document parsed. */
export interface LoadedDefinition {
  row: FlowDefinitionRow;
  def: FlowDefinitionDoc;
}

/**
 * All flow definitions of one project as read in one statement, the unit the per-process
 * definition cache keeps (a project has a handful; any change of one reloads them all).
 * Documents are parsed on first use and frozen: one parsed definition serves every request
 * of the process, so nobody may change it.
 */
export class ProjectDefinitions {
  private readonly parsed = new Map<string, LoadedDefinition>();

  /** `rows` oldest first (created_at, id), as `FlowDefinitionStore.forProject` reads them. */
  constructor(private readonly rows: FlowDefinitionRow[]) {
    for (const row of rows) deepFreeze(row);
  }

  private loaded(row: FlowDefinitionRow): LoadedDefinition {
    let loaded = this.parsed.get(row.id);
    if (!loaded) {
      loaded = Object.freeze({ row, def: deepFreeze(JSON.parse(row.definition) as FlowDefinitionDoc) });
      this.parsed.set(row.id, loaded);
    }
    return loaded;
  }

  byId(id: string): LoadedDefinition | undefined {
    const row = this.rows.find((r) => r.id === id);
    return row ? this.loaded(row) : undefined;
  }

  byName(name: string): LoadedDefinition | undefined {
    const row = this.rows.find((r) => r.name === name);
    return row ? this.loaded(row) : undefined;
  }

  /** The active definition for a purpose: the oldest whose audience names the app, else the oldest without audience. */
  resolve(purpose: string, appId: string | undefined): LoadedDefinition | undefined {
    const rows = this.rows.filter((row) => row.status === 'active' && row.purposes.includes(purpose));
    const specific = appId === undefined ? undefined : rows.find((row) => row.app_ids.includes(appId));
    const row = specific ?? rows.find((r) => r.app_ids.length === 0);
    return row ? this.loaded(row) : undefined;
  }
}
