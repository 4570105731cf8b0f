import type { ConsolePageKit } from './kit.js';

/** The console's model pages (being built). */
export function modelPages(kit: ConsolePageKit): void {
  void kit;
}
