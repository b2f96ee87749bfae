import { defineResource } from './resource-definition';

/**
 * A user as an organisation sees them (the spec's User table): `email`, `identities` and the grouped
 * `profile` (work, personal, contact, address, settings); `meta.grants` lists their role names there.
 */
export const users = defineResource({
  type: 'users',
  relationships: {
    organisations: { type: 'organisations', many: true },
    teams: { type: 'teams', many: true },
  },
  selfPath: (r) => `/v3/orgs/${r.org_id}/people/users/${r.id}`,
});
