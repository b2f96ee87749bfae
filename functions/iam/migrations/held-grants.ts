/**
 * Grants made before their holders kept them (a5dc760) are the grant record alone: no
 * `PRINCIPAL#<holder>`/`GRANT#<grant>` item, from which a principal's permissions are read, and no
 * `held#<grant>` on a holding user's record, from which `meta.grants` is: the grant gave nothing and its
 * holders' answers did not name it. Each holder lacking either gets what a grant made today writes
 * (`holdingOps`), in one transaction with checks that the grant and the team, role or group it names are
 * still as read, so a member who left the team meanwhile is never given it. A grant naming a role, group
 * or team deleted since gives nothing, and is left alone. Grants carry no mark of having been kept, so
 * every grant is selected; one whose holders keep it already is read and not written.
 */
import { heldNameAttribute, users } from '#functions/people/users';
import { heldGrantKey } from '#shared/data/principals';
import { getItem } from '#shared/data/repository';
import { scopeOf, systemActor } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { ValidationError } from '#shared/jsonapi/errors';
import { grants } from '../definitions';
import { holdingOf, holdingOps } from '../grant-writes';

const ATTEMPTS = 3;

/** The holders lacking the grant's item in their partition or, for a user, its name on their record. */
const lacking = async (grant: StoredResource, holders: readonly string[]) => {
  const missing = await Promise.all(
    holders.map(async (id) => {
      if (!(await getItem(heldGrantKey(id, grant.id), true))) return true;
      if (grant.rels.service_account) return false;
      const user = await getItem<Record<string, unknown>>(users.keyOf(grant.org_id, id), true);
      return user !== null && !(heldNameAttribute(grant.id) in user);
    }),
  );
  return holders.filter((_, i) => missing[i]);
};

const keep = async (read: StoredResource): Promise<number> => {
  const scope = scopeOf([read.org_id], undefined, systemActor('migrations'));
  let grant: StoredResource | null = read;
  for (let attempt = 0; grant && attempt < ATTEMPTS; attempt++) {
    let holding: Awaited<ReturnType<typeof holdingOf>>;
    try {
      holding = await holdingOf(scope, grant);
    } catch (error) {
      if (error instanceof ValidationError) return 0;
      throw error;
    }
    const missing = await lacking(grant, holding.holders);
    if (missing.length === 0) return 0;
    try {
      await commit(scope, [
        { check: { pk: grant.pk, sk: grant.sk, version: grant.version } },
        ...holding.checks,
        ...holdingOps(grant, missing, holding.name),
      ]);
      return 1;
    } catch (error) {
      if (!(error instanceof WriteRefused)) throw error;
    }
    grant = await getItem<StoredResource>({ pk: grant.pk, sk: grant.sk }, true);
  }
  if (grant) throw new Error(`grant ${read.id} kept changing while it was migrated: run again`);
  return 0;
};

export const heldGrants: MigrationStep = {
  select: {
    // The grant records themselves (their sort key is their id).
    expression: '#type = :type AND begins_with(pk, :tenant) AND sk = #id',
    names: { '#type': 'type', '#id': 'id' },
    values: { ':type': grants.type, ':tenant': 'ORG#' },
  },
  migrate: async (items) => (await Promise.all(items.map(keep))).reduce((sum, n) => sum + n, 0),
};
