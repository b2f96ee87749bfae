/**
 * Moments several declarations share (see `WriteMoments`): the caller recorded as a record's author, and a
 * record kept in its parent's list. `countOnNamed` (named-counts.ts) is the third.
 */
import type { Principal } from '../auth/principal';
import { getInScope } from '../data/repository';
import type { StoredResource } from '../data/stored-resource';
import type { Kept, WriteMoment } from './declaration';
import { declaredType } from './resource-definition';

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
