import { defineArea } from '#shared/engine/area';
import { migration } from '#shared/engine/migration-declarations';
import { organisations } from './definitions';
import { settings } from './settings';

export const area = defineArea('organisations', {
  tag: 'Organisations',
  permissions: {
    'organisations:view': 'See the organisations the caller holds grants in.',
    'settings:view': 'See the organisation’s settings (time zone, locale, session lifetime, page size, SSO).',
    'settings:manage': 'Change the organisation’s settings.',
  },
  resources: [organisations, settings],
  routes: [],
  migrations: [
    migration(1, 'settings-for-every-organisation', {
      module: 'functions/organisations/migrations/settings-for-every-organisation.ts',
      step: 'settingsForEveryOrganisation',
    }),
    // The id directory is every area's records', kept by the data layer: the organisations area, which
    // owns what tenancy means, owns its migration.
    migration(4, 'id-directory', {
      module: 'functions/organisations/migrations/id-directory.ts',
      step: 'idDirectory',
    }),
  ],
});
