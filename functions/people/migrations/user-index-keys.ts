/**
 * Migration 2: users made before they were administered (issue 21) have no `status` and none of the
 * index keys their sorts read (`lsi1` last name, `lsi2` e-mail), so `filter[status]` and the default
 * `sort=last_name` (and `sort=email`) never found them. Every user then was active (the status did not
 * exist, and their principal was enabled); each gets that status and the index keys its declaration
 * derives, as a user written today has them. A user with all three is not selected.
 */

import { rewriteRecord } from '#shared/data/migrations';
import { getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { indexed } from '#shared/engine/stored';
import { users } from '../users';

/** A record changed since the page read it is read again: a user being edited is still migrated. */
const ATTEMPTS = 3;

const migrated = (user: StoredResource): StoredResource =>
  indexed(users, { ...user, attributes: { status: 'active', ...user.attributes } });

const unchanged = (a: StoredResource, b: StoredResource) =>
  a.attributes.status === b.attributes.status && a.lsi1 === b.lsi1 && a.lsi2 === b.lsi2;

const migrate = async (read: StoredResource): Promise<number> => {
  let user: StoredResource | null = read;
  for (let attempt = 0; user && attempt < ATTEMPTS; attempt++) {
    const after = migrated(user);
    if (unchanged(user, after)) return 0;
    if (await rewriteRecord(user, after)) return 1;
    user = await getItem<StoredResource>({ pk: user.pk, sk: user.sk }, true);
  }
  if (user) throw new Error(`user ${read.id} kept changing while it was migrated: run the migration again`);
  return 0;
};

export const userIndexKeys: MigrationStep = {
  select: {
    expression:
      '#type = :users AND begins_with(pk, :tenant) AND (attribute_not_exists(#attributes.#status) OR attribute_not_exists(lsi1) OR attribute_not_exists(lsi2))',
    names: { '#type': 'type', '#attributes': 'attributes', '#status': 'status' },
    values: { ':users': 'users', ':tenant': 'ORG#' },
  },
  migrate: async (items) => (await Promise.all(items.map(migrate))).reduce((sum, n) => sum + n, 0),
};
