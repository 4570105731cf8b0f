import { DEFAULT_RETENTION_DAYS, MAX_RETENTION_DAYS } from './store.js';

export { DEFAULT_RETENTION_DAYS, MAX_RETENTION_DAYS };

/** The project settings section of the event log: `projects.settings.events` (PATCH /projects/{id}/settings). */
export const EVENT_SETTINGS_KEY = 'events';

export interface EventSettings {
  /** Days an event is kept; the sessions sweeper deletes older ones (default 90, 1 to 3650). */
  retention_days: number;
}

/** Reads the stored section leniently, as the sweeper's statement does: anything else is the default. */
export function eventSettingsFrom(projectSettings: Record<string, unknown>): EventSettings {
  const stored = projectSettings[EVENT_SETTINGS_KEY];
  const days = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>).retention_days : undefined;
  const valid = typeof days === 'number' && Number.isInteger(days) && days >= 1 && days <= MAX_RETENTION_DAYS;
  return { retention_days: valid ? days : DEFAULT_RETENTION_DAYS };
}
