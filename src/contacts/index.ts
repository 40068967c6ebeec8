import type { FeatureModule } from '../core/feature-module.js';
import { CONTACT_ROUTES } from './contact.rest.js';
import { CONTACT_SYNC_CRON, CONTACT_SYNC_TASK, contactsSyncStep, contactSyncTask } from './contact-sync.js';
import { Contact } from './contact.entity.js';
import { ContactResolver } from './contact.resolver.js';

/** Mail contacts of a tenant (SPEC 4.2 identity), synced from the cloud every 30 minutes (SPEC 8.3). */
export const contactsModule: FeatureModule = {
  name: 'contacts',
  resolvers: [ContactResolver],
  entities: [Contact],
  tasks: { [CONTACT_SYNC_TASK]: contactSyncTask },
  crons: [CONTACT_SYNC_CRON],
  routes: { api: CONTACT_ROUTES },
  syncStep: contactsSyncStep,
};
