import type { ConsolePageKit } from './kit.js';
import { accessPages } from './routes.access.js';
import { clientsPages } from './routes.clients.js';
import { eventPages } from './routes.events.js';
import { mailPages } from './routes.mail.js';
import { modelPages } from './routes.model.js';
import { samlPages } from './routes.saml.js';
import { settingsPages } from './routes.settings.js';
import { userPages } from './routes.users.js';
import { webhookPages } from './routes.webhooks.js';

/** Every group of console pages (one `routes.<group>.ts` each), registered with the kit ./routes.ts builds. A new group adds its line here. */
export function sectionPages(kit: ConsolePageKit): void {
  userPages(kit);
  settingsPages(kit);
  accessPages(kit);
  clientsPages(kit);
  mailPages(kit);
  modelPages(kit);
  eventPages(kit);
  samlPages(kit);
  webhookPages(kit);
}
