/** Exports: a file of the records a caller could list, written to the exports bucket (kept 30 days). */
import { createdAtSort, defineResource } from '../resource-definition';

export const exportsDefinition = defineResource({
  type: 'exports',
  relationships: {
    organisation: { type: 'organisations' },
    created_by_user: { type: 'users' },
    created_by_service_account: { type: 'service-accounts' },
  },
  self: 'getExport',
  collection: {
    filters: {
      subject_type: { kind: 'eq', path: 'attributes.subject_type' },
      created_at: { kind: 'time', path: 'meta.created_at' },
    },
    sorts: createdAtSort,
    defaultSort: '-created_at',
    includes: [],
  },
});
