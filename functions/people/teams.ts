import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

/**
 * Teams: a name, a description and members, one of whom may lead. Created with members
 * (`team-writes.ts`); changed by the generic PATCH (name and description); members and lead change
 * through `…/relationships/members` (`team-member-writes.ts`), which moves what the team's grants give
 * with them; deleted only once it has no members and holds no grants (`delete-team.ts`).
 */
export const teams = defineResource({
  type: 'teams',
  names: { one: 'Team', many: 'Teams' },
  collectionPath: '/v3/orgs/{org_id}/people/teams',
  itemPath: '/v3/orgs/{org_id}/people/teams/{team_id}',
  permission: 'teams',
  endpoints: {
    list: 'functions/people/list-teams.ts',
    get: true,
    create: 'functions/people/create-team.ts',
    update: true,
    delete: 'functions/people/delete-team.ts',
  },
  writes: async () => {
    const { requiredLine, freeText } = await loadSchemaBuilders();
    return {
      attributes: { name: requiredLine(200), description: freeText(2000).optional() },
    };
  },
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return { name: z.string(), description: z.string() };
  },
  relationships: {
    members: { type: 'users', many: true },
    organisation: { type: 'organisations' },
    schemas: { type: 'form-schemas', many: true },
    // Set by `meta: {lead: true}` on a member's identifier at …/relationships/members; always a member.
    lead: { type: 'users' },
  },
  collection: {
    // Every filter indexed: name on its sort's lsi1, a creation window on the ids, and a modification
    // window (incremental sync) on the updated_at sort's lsi2, so a sync walk in that sort reads its page.
    filters: {
      name: { kind: 'eq', path: 'attributes.name', index: 'sort-name' },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
      updated_at: { kind: 'time', path: 'meta.updated_at', index: 'sort-updated_at' },
    },
    sorts: {
      name: { path: 'attributes.name', index: 'lsi1' },
      updated_at: { path: 'meta.updated_at', index: 'lsi2' },
    },
    defaultSort: 'name',
    includes: ['members'],
  },
  events: ['member-added', 'member-removed', 'members-replaced'],
});
