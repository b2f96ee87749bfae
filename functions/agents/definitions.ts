/** Agents (AI personas of an organisation) and the briefings they produce. */
import { authored } from '#shared/engine/moments';
import { CRUD, defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import { briefingStatuses, sectionTypes, severities } from './rules/briefing-sections';

export const agents = defineResource({
  type: 'agents',
  names: { one: 'Agent', many: 'Agents' },
  collectionPath: '/v3/orgs/{org_id}/agents',
  itemPath: '/v3/orgs/{org_id}/agents/{agent_id}',
  // Its briefings are listed at `/v3/agents/{agent_id}/briefings`, found by the agent's id alone.
  foundById: true,
  permission: 'agents',
  endpoints: CRUD,
  writes: async () => {
    const { z, requiredLine, freeText, requiredText } = await loadSchemaBuilders();
    return {
      attributes: {
        name: requiredLine(100),
        description: freeText(2000).optional(),
        persona: requiredText(20_000),
        model: requiredLine(100).optional(),
        enabled: z.boolean(),
      },
      prepare: authored,
    };
  },
  relationships: {
    author: { type: 'users' },
    author_service_account: { type: 'service-accounts' },
  },
  // In name order (the list's sort), on lsi2: lsi1 holds the sort.
  keys: {
    'filter-enabled': {
      index: 'lsi2',
      pk: 'ORG#{org_id}#agents',
      sk: 'enabled#{attributes.enabled}#{attributes.name:folded}\u0001{id}',
      about:
        "an agent under whether it is enabled, in name order (the list's sort): `filter[enabled]`; agents written before issue 42 lack it until migrated",
    },
  },
  collection: {
    // Every filter indexed: enabled (counted) on lsi2, a creation window on the ids.
    filters: {
      enabled: {
        kind: 'eq',
        path: 'attributes.enabled',
        type: 'boolean',
        index: 'filter-enabled',
        counted: true,
      },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
    defaultSort: 'name',
    includes: [],
  },
});

export const briefings = defineResource({
  type: 'briefings',
  tag: 'Briefings',
  names: { one: 'Briefing', many: 'Briefings' },
  collectionPath: '/v3/agents/{agent_id}/briefings',
  itemPath: '/v3/briefings/{briefing_id}',
  permission: 'agents',
  endpoints: {
    list: 'functions/agents/briefings/list.ts',
    get: true,
    create: 'functions/agents/briefings/create.ts',
    update: 'functions/agents/briefings/update.ts',
  },
  // The generated result is absent while the briefing is generating (and stays absent if it fails).
  served: async () => {
    const { z, jsonObject } = await loadSchemaBuilders();
    return {
      status: z.enum(briefingStatuses),
      summary: z.string().optional(),
      sections: z
        .array(
          z.strictObject({
            title: z.string(),
            items: z.array(jsonObject()),
            reasoning: z.string(),
            type: z.enum(sectionTypes),
            severity: z.enum(severities),
          }),
        )
        .optional(),
      reasoning: jsonObject().optional(),
      model_used: z.string().optional(),
      token_usage: z
        .strictObject({ prompt_tokens: z.number().int(), completion_tokens: z.number().int() })
        .optional(),
      failure_reason: z.string().optional(),
    };
  },
  relationships: { agent: { type: 'agents' } },
  // An agent's briefings only (a per-parent pattern): its list is the one route that filters them.
  keys: {
    'filter-status': {
      index: 'gsi2',
      pk: 'BRIEFINGS#{org_id}#{rels.agent}',
      sk: 'status#{attributes.status}#{id}',
      about:
        "an agent's briefing under its status, in creation order: `filter[status]`; briefings written before issue 42 lack it until migrated",
    },
    'filter-generated-at': {
      index: 'lsi1',
      pk: 'ORG#{org_id}#briefings',
      sk: 'agent#{rels.agent}#{meta.generated_at:folded}#{id}',
      about:
        "an agent's generated briefing, in the order generated (none while generating): `filter[generated_at.since/until]`; briefings written before issue 42 lack it until migrated",
    },
  },
  collection: {
    // A briefing a site a working day: both filters are indexed, in the agent's briefings alone.
    filters: {
      created_at: false,
      status: { kind: 'eq', path: 'attributes.status', index: 'filter-status' },
      generated_at: { kind: 'time', path: 'meta.generated_at', index: 'filter-generated-at' },
    },
    defaultSort: '-created_at',
    includes: ['agent'],
  },
});
