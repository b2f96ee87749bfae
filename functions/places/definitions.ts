/** Places an organisation manages. */
import { keyFrom } from '#shared/data/access-patterns';
import { jobStateKey } from '#shared/data/job-keys';
import type { JobState } from '#shared/data/jobs';
import { readAheadOr } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import { type StoredResource, tenantPattern } from '#shared/data/stored-resource';
import { CRUD, defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import type { SchemaBuilders } from '#shared/jsonapi/schema-builders';
import { LOCATION_FIELDS } from './rules/location-rows';

/** What places share: a point indexed by geohash, the organisation's own reference, a name. */
const place = {
  geoIndex: { path: 'attributes.location' },
  filters: {
    reference: { kind: 'eq', path: 'attributes.reference' },
    name: { kind: 'eq', path: 'attributes.name' },
    location: { kind: 'box', path: 'attributes.location' },
    created_at: { kind: 'time', path: 'meta.created_at' },
  },
  sorts: {
    name: { path: 'attributes.name', index: 'lsi1' },
    reference: { path: 'attributes.reference', index: 'lsi2' },
  },
} as const;

// Built by the writes that need it, not when the area loads.
const point = ({ z }: SchemaBuilders) =>
  z.strictObject({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
  });

/** The organisation's own reference is the key imports match on: unique within the organisation. */
const referenceClaims = { ...tenantPattern('location-references', '{reference}'), about: '`holder_id`' };
export const referenceClaim = (orgId: string, reference: string) =>
  keyFrom(referenceClaims, { org_id: orgId, reference });

export const locations = defineResource({
  type: 'locations',
  names: { one: 'Location', many: 'Locations' },
  collectionPath: '/v3/orgs/{org_id}/governance/locations',
  itemPath: '/v3/orgs/{org_id}/governance/locations/{location_id}',
  permission: 'places',
  endpoints: CRUD,
  writes: async () => {
    const builders = await loadSchemaBuilders();
    const { requiredLine, freeText } = builders;
    return {
      attributes: {
        name: requiredLine(200),
        reference: requiredLine(100).optional(),
        address: freeText(500).optional(),
        location: point(builders).optional(),
      },
      unique: { attribute: 'reference', claim: 'reference-claim' },
    };
  },
  keys: { 'reference-claim': referenceClaims },
  geoIndex: place.geoIndex,
  collection: {
    // Every filter is indexed (an organisation may hold tens of thousands, loaded by import): reference and
    // name through their sort indexes, a creation window as a range of the UUIDv7 ids, a box by geohash.
    filters: {
      reference: { ...place.filters.reference, index: 'sort-reference' },
      name: { ...place.filters.name, index: 'sort-name' },
      location: { ...place.filters.location, index: 'geo' },
      created_at: { ...place.filters.created_at, index: 'record' },
    },
    sorts: place.sorts,
    defaultSort: 'name',
    includes: [],
  },
});

export const properties = defineResource({
  type: 'properties',
  tag: 'Properties',
  names: { one: 'Property', many: 'Properties' },
  collectionPath: '/v3/governance/properties',
  itemPath: '/v3/orgs/{org_id}/governance/properties/{property_id}',
  permission: 'places',
  endpoints: {
    list: true,
    get: true,
    // Listed across the caller's organisations, created in one.
    create: { path: '/v3/orgs/{org_id}/governance/properties' },
    update: true,
    delete: true,
  },
  writes: async () => {
    const builders = await loadSchemaBuilders();
    const { z, line, requiredLine, freeText } = builders;
    return {
      attributes: {
        name: requiredLine(200),
        reference: requiredLine(100).optional(),
        uprn: z
          .string()
          .regex(/^\d{1,12}$/)
          .optional(),
        address: freeText(500).optional(),
        postcode: line(10).optional(),
        location: point(builders).optional(),
      },
      relationships: ['street'],
    };
  },
  relationships: { street: { type: 'streets' } },
  geoIndex: place.geoIndex,
  collection: {
    filters: {
      ...place.filters,
      uprn: { kind: 'eq', path: 'attributes.uprn' },
      postcode: { kind: 'eq', path: 'attributes.postcode' },
      organisation: { kind: 'eq', path: 'org_id' },
    },
    sorts: place.sorts,
    defaultSort: 'name',
    includes: ['street', 'organisation'],
  },
});

export const streets = defineResource({
  type: 'streets',
  tag: 'Streets',
  names: { one: 'Street', many: 'Streets' },
  collectionPath: '/v3/governance/streets',
  itemPath: '/v3/streets/{street_id}',
  permission: 'places',
  endpoints: { list: true, get: true },
  // Loaded from the national street gazetteer, not through the API.
  served: async () => {
    const builders = await loadSchemaBuilders();
    const { z } = builders;
    return { usrn: z.string(), name: z.string(), town: z.string() };
  },
  collection: {
    filters: {
      created_at: false,
      usrn: { kind: 'eq', path: 'attributes.usrn' },
      town: { kind: 'eq', path: 'attributes.town' },
      organisation: { kind: 'eq', path: 'org_id' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
    defaultSort: 'name',
    includes: [],
  },
});

export const importTemplates = defineResource({
  type: 'import-templates',
  tag: 'Import Templates',
  names: { one: 'ImportTemplate', many: 'ImportTemplates' },
  collectionPath: '/v3/orgs/{org_id}/governance/import-templates',
  itemPath: '/v3/orgs/{org_id}/governance/import-templates/{import_template_id}',
  permission: 'places',
  endpoints: {
    list: true,
    get: true,
    create: true,
    delete: true,
  },
  writes: async () => {
    const builders = await loadSchemaBuilders();
    const { z, requiredLine } = builders;
    return {
      attributes: {
        name: requiredLine(200),
        target: z.literal('locations'),
        columns: z.strictObject(
          Object.fromEntries(LOCATION_FIELDS.map((field) => [field, requiredLine(100).optional()])),
        ),
      },
    };
  },
  // In name order (the list's sort), on lsi2: lsi1 holds the sort.
  keys: {
    'filter-target': {
      index: 'lsi2',
      pk: 'ORG#{org_id}#import-templates',
      sk: 'target#{attributes.target}#{attributes.name:folded}\u0001{id}',
      about:
        "a template under its target, in name order (the list's sort): `filter[target]`; templates written before issue 42 lack it until migrated",
    },
  },
  collection: {
    filters: {
      created_at: false,
      // Indexed and counted (one value today, `locations`): a page in name order reads what it returns.
      target: { kind: 'eq', path: 'attributes.target', index: 'filter-target', counted: true },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
    defaultSort: 'name',
    includes: [],
  },
});

/**
 * An import's `progress` while its job runs, read from the job's working state: the job keeps it (its
 * checkpoints move it), so the import shows it on read rather than being written twice a chunk (its
 * record's versions are events; the state's ticks are not). `null` when no job is running the import.
 */
const withJobProgress = async (scope: Scope, items: StoredResource[]) => {
  const jobOf = (item: StoredResource) =>
    item.attributes.status === 'processing' && typeof item.rels.job === 'string' ? item.rels.job : null;
  const running = items.flatMap((item) => jobOf(item) ?? []);
  const states =
    running.length === 0
      ? new Map<string, JobState>()
      : new Map(
          (await readAheadOr<JobState>(scope, running.map(jobStateKey))).map((state) => [
            state.job_id,
            state,
          ]),
        );
  return items.map((item) => {
    const state = states.get(jobOf(item) ?? '');
    return {
      ...item,
      attributes: {
        ...item.attributes,
        progress: state ? { processed: state.processed, total: state.total } : null,
      },
    };
  });
};

export const locationImports = defineResource({
  type: 'location-imports',
  events: ['processed'],
  tag: 'Location Imports',
  names: { one: 'LocationImport', many: 'LocationImports' },
  collectionPath: '/v3/orgs/{org_id}/governance/location-imports',
  itemPath: '/v3/orgs/{org_id}/governance/location-imports/{location_import_id}',
  permission: 'places',
  endpoints: {
    list: true,
    get: true,
    create: {
      handler: 'functions/places/location-imports/create.ts',
      access: { table: 'write', buckets: { exports: 'write' } },
      answers: { status: 201, resource: 'location-imports', job: true },
    },
  },
  // The outcome (counts, errors, times) arrives when the import completes or fails.
  served: async () => {
    const builders = await loadSchemaBuilders();
    const { z, instant } = builders;
    return {
      status: z.enum(['awaiting_upload', 'processing', 'completed', 'failed']),
      source: z.strictObject({
        kind: z.enum(['inline', 'upload']),
        file_name: z
          .string()
          .nullable()
          .describe('As the client named it; null for an inline import that named none.'),
        bytes: z.number().int(),
        checksum: z.string().optional().describe('SHA-256 the upload was signed with, base64.'),
        object: z.string().optional().describe("The file's key in the exports bucket."),
      }),
      counts: z
        .strictObject({
          rows: z.number().int(),
          created: z.number().int(),
          updated: z.number().int(),
          unchanged: z.number().int(),
          rejected: z.number().int(),
        })
        .optional(),
      errors: z
        .array(z.strictObject({ line: z.number().int().nullable(), message: z.string() }))
        .optional()
        .describe('Rejected rows (the first ones), or why the import failed.'),
      errors_truncated: z.boolean().optional(),
      started_at: instant().optional(),
      finished_at: instant().optional(),
      progress: z
        .strictObject({ processed: z.number().int(), total: z.number().int().nullable() })
        .nullable()
        .describe(
          'While its job runs: rows processed of the total (null until the file is counted); else null.',
        ),
    };
  },
  relationships: {
    author: { type: 'users' },
    author_service_account: { type: 'service-accounts' },
    import_template: { type: 'import-templates' },
    /** The job running a large import, named from its creation (none for an import done in its request). */
    job: { type: 'jobs' },
  },
  derive: withJobProgress,
  // In creation order (the list's one sort), on lsi1: no sort uses it.
  keys: {
    'filter-status': {
      index: 'lsi1',
      pk: 'ORG#{org_id}#location-imports',
      sk: 'status#{attributes.status}#{id}',
      about:
        'an import under its status, in creation order: `filter[status]`; imports written before issue 42 lack it until migrated',
    },
  },
  collection: {
    // Every filter indexed: status (four values, counted), a creation window on the ids.
    filters: {
      status: { kind: 'eq', path: 'attributes.status', index: 'filter-status', counted: true },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    defaultSort: '-created_at',
    includes: ['import_template'],
  },
});
