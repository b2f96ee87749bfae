/**
 * Creating, changing and deleting tenant records of any type: the record, its counter, any extra ops
 * (claims, links) and a check that every record its relationships name exists in the organisation all
 * commit in one transaction; a refused check is a 400 pointing at the relationship that named it.
 */
import * as z from 'zod';
import { uuidv7 } from '../data/ids';
import { getConsistent } from '../data/repository';
import type { Scope } from '../data/scope';
import type { StoredRelationship, StoredResource } from '../data/stored-resource';
import { commit, type WriteOp, WriteRefused } from '../data/transaction';
import { entityTagOf } from '../http/preconditions';
import { ConflictError, PreconditionFailedError, ValidationError } from '../jsonapi/errors';
import type { Check, ResourceDefinition } from './declaration';
import { declaredType } from './resource-definition';

export type { Check } from './declaration';
/** Where most bespoke writes look for it, beside the rest of a write's parts. */
export { byPrincipal } from './moments';

import { type Identifier, identifiersOf, storedIdentifier } from './relationship-targets';
import { indexed, toStoredResource } from './stored';

type RelationshipInput = { data: Identifier | Identifier[] | null };

/**
 * `{name: {data: …}}` as a request names them → stored values: ids, or `<type>:<id>` for a relationship the
 * definition declares polymorphic (so a write of one must name its definition).
 */
export const storedRelationships = (
  relationships: Record<string, RelationshipInput | undefined> = {},
  definition?: ResourceDefinition,
) =>
  Object.fromEntries(
    Object.entries(relationships).flatMap(([name, r]): [string, StoredRelationship][] => {
      if (r === undefined) return [];
      if (Array.isArray(r.data)) return [[name, r.data.map((d) => d.id)]];
      const polymorphic = definition?.relationships[name]?.types !== undefined;
      return [[name, r.data && polymorphic ? storedIdentifier(r.data) : (r.data?.id ?? null)]];
    }),
  );

/**
 * The JSON:API schema of one relationship of a definition, for request documents. A polymorphic one takes an
 * identifier of any of its types (a `oneOf` told apart by `type`: another type is a 400 at `…/data/type`).
 */
export const relationshipSchema = (definition: ResourceDefinition, name: string, maxMany = 100) => {
  const target = definition.relationships[name];
  if (!target) throw new Error(`${definition.type} has no relationship ${name}`);
  const identifier = (type: string) => z.strictObject({ type: z.literal(type), id: z.uuid() });
  if (target.types) {
    const [first, second, ...more] = target.types;
    const oneOf = [identifier(first), identifier(second), ...more.map(identifier)] as const;
    return z.strictObject({ data: z.discriminatedUnion('type', oneOf).nullable() });
  }
  return target.many
    ? z.strictObject({ data: z.array(identifier(target.type)).max(maxMany) })
    : z.strictObject({ data: identifier(target.type).nullable() });
};

/**
 * Checks that every record the relationships name exists among the organisation's records of its type: a
 * record of another organisation is looked for under this one's key, so it is as missing as an unknown id.
 * A target whose declaration is not loaded is refused, never let through unchecked: a function writing a
 * type loads the declarations of every type that type links to (`typesNeeded`, fenced by
 * test/infra/area-bundles.test.ts), so one missing is a programming error (a type declared nowhere yet,
 * or a write in a function that does not serve its type).
 */
export const existenceChecks = (
  definition: ResourceDefinition,
  orgId: string,
  rels: Record<string, StoredRelationship>,
): Check[] =>
  Object.entries(rels).flatMap(([name, stored]) => {
    const relationship = definition.relationships[name];
    if (!relationship || name === 'organisation') return [];
    const many = Array.isArray(stored);
    return identifiersOf(relationship, stored).flatMap(({ type, id }, i) => {
      const target = declaredType(type);
      if (!target)
        throw new Error(`${definition.type}.${name} links to ${type}, whose declaration is not loaded here`);
      return [
        {
          op: { check: target.keyOf(orgId, id) },
          pointer: `/data/relationships/${name}/data${many ? `/${i}` : ''}`,
        },
      ];
    });
  });

/**
 * The 412 for a write refused because the record its request's `If-Match` is about changed after it was
 * read and checked: the tag of the version now stored (none if it is gone; 404 is the next answer then).
 * A record served before it was stored (`readInScope`'s `unstored`) is first written by a create, which
 * another request's first write beats.
 */
const staleAgainstPrecondition = async (scope: Scope, op: WriteOp | undefined) => {
  const written =
    op &&
    ('replace' in op ? op.replace : 'delete' in op ? op.delete : 'create' in op ? op.create : undefined);
  if (!written || written.id !== scope.precondition?.id) return undefined;
  const current = await getConsistent(scope, { pk: written.pk, sk: written.sk, orgId: written.org_id });
  return new PreconditionFailedError(current ? entityTagOf(current) : '""');
};

/** A write refused because a record it read changed meanwhile: 409, read it again. */
export const refusedAsRace = (error: WriteRefused): never => {
  throw error.code === 'stale' || error.code === 'exists'
    ? new ConflictError('The record changed while this request was applied; read it again and retry.')
    : error;
};

/** Commits ops, then the checks; says which check or which op refused. */
export const commitChecked = async (
  scope: Scope,
  ops: WriteOp[],
  checks: Check[],
  onRefused: (error: WriteRefused) => never = refusedAsRace,
): Promise<void> => {
  await commit(scope, [...ops, ...checks.map((c) => c.op)]).catch(async (error: unknown) => {
    if (!(error instanceof WriteRefused)) throw error;
    const precondition =
      (error.code === 'stale' || error.code === 'exists') && error.op !== undefined
        ? await staleAgainstPrecondition(scope, ops[error.op])
        : undefined;
    if (precondition) throw precondition;
    const check = error.op === undefined ? undefined : checks[error.op - ops.length];
    if (check)
      throw new ValidationError({
        detail: 'No such record in this organisation.',
        source: { pointer: check.pointer },
      });
    return onRefused(error);
  });
};

export interface RecordChanges {
  attributes?: Record<string, unknown>;
  rels?: Record<string, StoredRelationship>;
  meta?: Record<string, unknown>;
}

export const newRecord = (
  definition: ResourceDefinition,
  orgId: string,
  changes: RecordChanges,
  now = new Date(),
  /** Its id, when it must be the same whenever the write is made again (a job's chunk done twice). */
  id = uuidv7(now.getTime()),
) =>
  toStoredResource(definition, {
    orgId,
    id,
    attributes: changes.attributes ?? {},
    meta: { created_at: now.toISOString(), updated_at: now.toISOString(), ...changes.meta },
    rels: changes.rels ?? {},
  });

export const changedRecord = (
  definition: ResourceDefinition,
  record: StoredResource,
  changes: RecordChanges,
  now = new Date(),
) =>
  indexed(definition, {
    ...record,
    attributes: { ...record.attributes, ...changes.attributes },
    rels: { ...record.rels, ...changes.rels },
    meta: { ...record.meta, ...changes.meta, updated_at: now.toISOString() },
    version: record.version + 1,
  });

/** Creates a record; `checked` are the relationships whose targets must exist (by default all of them). */
export const createRecord = async (
  scope: Scope,
  definition: ResourceDefinition,
  record: StoredResource,
  extra: WriteOp[] = [],
  onRefused?: (error: WriteRefused) => never,
  checked: Record<string, StoredRelationship> = record.rels,
  checks: Check[] = [],
) => {
  await commitChecked(
    scope,
    [{ create: record }, ...extra],
    [...existenceChecks(definition, record.org_id, checked), ...checks],
    onRefused,
  );
  return record;
};

/**
 * Writes the next version of a record over the one read (`was`, which its event's `was` is made from);
 * only relationships that changed are checked again.
 */
export const replaceRecord = async (
  scope: Scope,
  definition: ResourceDefinition,
  { replace: next, was }: { replace: StoredResource; was: StoredResource },
  changedRels: Record<string, StoredRelationship> = {},
  extra: WriteOp[] = [],
  onRefused?: (error: WriteRefused) => never,
  checks: Check[] = [],
) => {
  await commitChecked(
    scope,
    [{ replace: next, was }, ...extra],
    [...existenceChecks(definition, next.org_id, changedRels), ...checks],
    onRefused,
  );
  return next;
};

export const deleteRecord = (
  scope: Scope,
  record: StoredResource,
  extra: WriteOp[] = [],
  checks: Check[] = [],
) => commitChecked(scope, [{ delete: record }, ...extra], checks);
