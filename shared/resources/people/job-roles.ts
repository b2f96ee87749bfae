/** Job roles: what a person does in the organisation (a user holds at most one, issue 21), by name and code. */
import { freeText, requiredLine } from '../../jsonapi/attribute-types';
import { CRUD, createdAtSort, defineResource } from '../resource-definition';

export const jobRoles = defineResource({
  type: 'job-roles',
  tag: 'Job Roles',
  names: { one: 'JobRole', many: 'JobRoles' },
  collectionPath: '/v3/orgs/{org_id}/people/job-roles',
  itemPath: '/v3/job-roles/{job_role_id}',
  permission: 'job-roles',
  endpoints: CRUD,
  writes: () => ({
    attributes: { name: requiredLine(200), code: requiredLine(50), description: freeText(2000).optional() },
    // The code is how other systems (payroll, competence matrices) name a role: one per organisation.
    unique: { attribute: 'code', claim: (orgId, code) => ({ pk: `ORG#${orgId}#job-role-codes`, sk: code }) },
  }),
  relationships: { organisation: { type: 'organisations' } },
  collection: {
    filters: {
      name: { kind: 'eq', path: 'attributes.name' },
      code: { kind: 'eq', path: 'attributes.code' },
      created_at: { kind: 'time', path: 'meta.created_at' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' }, ...createdAtSort },
    defaultSort: 'name',
    includes: [],
  },
});
