/** Places an organisation manages. */
import { createdAtSort, defineResource } from '../resource-definition';

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
    ...createdAtSort,
  },
} as const;

export const locations = defineResource({
  type: 'locations',
  relationships: { organisation: { type: 'organisations' } },
  self: 'getLocation',
  geoIndex: place.geoIndex,
  collection: { filters: place.filters, sorts: place.sorts, defaultSort: 'name', includes: [] },
});

export const properties = defineResource({
  type: 'properties',
  relationships: { organisation: { type: 'organisations' }, street: { type: 'streets' } },
  self: 'getProperty',
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
  relationships: { organisation: { type: 'organisations' } },
  self: 'getStreet',
  collection: {
    filters: {
      usrn: { kind: 'eq', path: 'attributes.usrn' },
      town: { kind: 'eq', path: 'attributes.town' },
      organisation: { kind: 'eq', path: 'org_id' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' }, ...createdAtSort },
    defaultSort: 'name',
    includes: [],
  },
});

export const importTemplates = defineResource({
  type: 'import-templates',
  relationships: { organisation: { type: 'organisations' } },
  self: 'getImportTemplate',
  collection: {
    filters: { target: { kind: 'eq', path: 'attributes.target' } },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' }, ...createdAtSort },
    defaultSort: 'name',
    includes: [],
  },
});

export const locationImports = defineResource({
  type: 'location-imports',
  relationships: {
    organisation: { type: 'organisations' },
    author: { type: 'users' },
    author_service_account: { type: 'service-accounts' },
    import_template: { type: 'import-templates' },
  },
  self: 'getLocationImport',
  collection: {
    filters: {
      status: { kind: 'eq', path: 'attributes.status' },
      created_at: { kind: 'time', path: 'meta.created_at' },
    },
    sorts: { ...createdAtSort },
    defaultSort: '-created_at',
    includes: ['import_template'],
  },
});
