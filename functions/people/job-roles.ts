/**
 * Job roles: what a person does in the organisation, by name and code; a user holds at most one
 * (`user-writes.ts` keeps each role's count of holders, in the user's own transaction).
 */

import { JOB_ROLES_REQUIRING, qualificationSpecifications } from '#functions/qualifications/definitions';
import { type StoredResource, tenantPattern } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { countOnNamed } from '#shared/engine/moments';
import { CRUD, defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

/**
 * How many users hold the role: a number kept on the role's record by the users' own writes (never an
 * attribute of its own; `#` marks what other records' writes keep).
 */
export const HOLDERS = 'count#holders';
/**
 * A user moving from one job role to another (either may be none), in the user's own transaction: each
 * role's count of holders moves with them, and the role taken must exist (its update is refused if not).
 */
export const holdersMove = (orgId: string, from: unknown, to: unknown): WriteOp[] =>
  from === to
    ? []
    : [
        ...(typeof from === 'string'
          ? [{ keep: { key: jobRoles.keyOf(orgId, from), add: { [HOLDERS]: -1 } } }]
          : []),
        ...(typeof to === 'string'
          ? [{ keep: { key: jobRoles.keyOf(orgId, to), add: { [HOLDERS]: 1 } } }]
          : []),
      ];

const holdersOf = (role: StoredResource): number =>
  Number((role as unknown as Record<string, unknown>)[HOLDERS] ?? 0);

export const jobRoles = defineResource({
  type: 'job-roles',
  tag: 'Job Roles',
  names: { one: 'JobRole', many: 'JobRoles' },
  collectionPath: '/v3/orgs/{org_id}/people/job-roles',
  itemPath: '/v3/job-roles/{job_role_id}',
  permission: 'job-roles',
  endpoints: CRUD,
  writes: async () => {
    const { requiredLine, freeText } = await loadSchemaBuilders();
    return {
      attributes: { name: requiredLine(200), code: requiredLine(50), description: freeText(2000).optional() },
      // The qualifications the role requires: users?filter[compliant_with]=<it> lists who meets them.
      relationships: ['required_specification'],
      // Counted on the specification, which stays while a role requires it.
      keep: countOnNamed('required_specification', qualificationSpecifications, JOB_ROLES_REQUIRING),
      // The code is how other systems (payroll, competence matrices) name a role: one per organisation.
      unique: { attribute: 'code', claim: 'code-claim' },
      guardDelete: (role) => {
        const n = holdersOf(role);
        return n > 0
          ? `${n} ${n === 1 ? 'user holds' : 'users hold'} this job role: give them another (or none) first.`
          : undefined;
      },
    };
  },
  keys: {
    'code-claim': {
      ...tenantPattern('job-role-codes', '{code}'),
      about: '`holder_id`; read by `filter[code]`',
    },
  },
  relationships: {
    required_specification: { type: 'qualification-specifications' },
  },
  collection: {
    // Every filter indexed: name on its sort's lsi1, code (unique) by its claim, a creation window on the ids.
    filters: {
      name: { kind: 'eq', path: 'attributes.name', index: 'sort-name' },
      code: { kind: 'eq', path: 'attributes.code', index: 'code-claim', claimed: true },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
    defaultSort: 'name',
    includes: ['required_specification'],
  },
  // `meta.holders`: how many users hold it, from its own record.
  derive: async (_scope, roles) =>
    roles.map((role) => ({ ...role, meta: { ...role.meta, holders: holdersOf(role) } })),
});
