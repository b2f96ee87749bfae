/**
 * Moments several declarations share (see `WriteMoments`): the caller recorded as a record's author, a
 * record kept in its parent's list, and a count kept on the records a relationship names.
 */
import type { Principal } from '../auth/principal';
import { getInScope } from '../data/repository';
import type { StoredResource } from '../data/stored-resource';
import type { Check, Kept, WriteMoment } from './declaration';
import { declaredType, type ResourceDefinition } from './resource-definition';
import { relatedIds } from './serialise';

/**
 * Relationships naming the caller, one for each kind of principal: `user` (`<prefix>_user`, unless the
 * record names it bare: the spec's `author`, an award's `verified_by`) and `<prefix>_service_account`.
 */
export const byPrincipal = (
  prefix: string,
  principal: Principal | null | undefined,
  user = prefix === 'author' ? 'author' : `${prefix}_user`,
) => ({
  [user]: principal?.kind === 'user' ? principal.id : null,
  [`${prefix}_service_account`]: principal?.kind === 'service-account' ? principal.id : null,
});

/** A `prepare`: the creator is recorded as `author` (a user) or `author_service_account`, never changed after. */
export const authored = (record: StoredResource, { before, principal }: WriteMoment) =>
  before ? record : { ...record, rels: { ...record.rels, ...byPrincipal('author', principal) } };

/**
 * A `keep`: the record is listed on the one its `relationship` names, in that record's `as` list (a
 * contact's interactions), from its create to its delete. The link's own condition proves the parent
 * exists (a 400 at the relationship if not), in place of the existence check the relationship has.
 */
export const listedOn =
  (relationship: string, as: string) =>
  async (
    before: StoredResource | null,
    after: StoredResource | null,
    scope: Parameters<typeof getInScope>[0],
  ): Promise<Kept> => {
    const record = after ?? before;
    const parentId = record?.rels[relationship];
    const parent = declaredType(declaredType(record?.type ?? '')?.relationships[relationship]?.type ?? '');
    if (!record || !parent || typeof parentId !== 'string' || (before && after)) return {};
    if (!before)
      return {
        checks: [
          {
            op: { link: { key: parent.keyOf(record.org_id, parentId), relationship: as, id: record.id } },
            pointer: `/data/relationships/${relationship}/data`,
          },
        ],
      };
    const listedBy = await getInScope(scope, parent.keyOf, parentId);
    return listedBy ? { ops: [{ unlink: { record: listedBy, relationship: as, id: record.id } }] } : {};
  };

/**
 * A `keep` counting a to-one or to-many relationship on the records it names: each keeps a number
 * (`count`) moved in the naming record's own transaction as the relationship is set, changed or cleared
 * and as the record goes, so a named record can refuse deletion while named (its `guardDelete`). A refused
 * move (the record named is absent) is a 400 at the relationship.
 */
export const countOnNamed =
  (relationship: string, target: ResourceDefinition, count: string) =>
  (before: StoredResource | null, after: StoredResource | null): { checks: Check[] } => {
    const ids = (record: StoredResource | null) => (record ? relatedIds(record, relationship) : []);
    const [was, is] = [ids(before), ids(after)];
    const orgId = (after ?? before)?.org_id ?? '';
    const move = (id: string, by: number): Check => ({
      op: { keep: { key: target.keyOf(orgId, id), add: { [count]: by } } },
      pointer: `/data/relationships/${relationship}/data`,
    });
    return {
      checks: [
        ...was.filter((id) => !is.includes(id)).map((id) => move(id, -1)),
        ...is.filter((id) => !was.includes(id)).map((id) => move(id, 1)),
      ],
    };
  };
