import type { ConsolePageKit } from './kit.js';

/** The console's mail pages (being built). */
export function mailPages(kit: ConsolePageKit): void {
  void kit;
}
