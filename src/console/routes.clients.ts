import type { ConsolePageKit } from './kit.js';

/** The console's clients pages (being built). */
export function clientsPages(kit: ConsolePageKit): void {
  void kit;
}
