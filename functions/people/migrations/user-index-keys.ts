/**
 * Migration 2: users made before they were administered (issue 21) have no `status` and none of the
 * index keys their sorts read (`lsi1` last name, `lsi2` e-mail), so `filter[status]` and the default
 * `sort=last_name` (and `sort=email`) never found them. Every user then was active (the status did not
 * exist, and their principal was enabled); each gets that status and the index keys its declaration
 * derives, as a user written today has them. A user with all three is not selected.
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { users } from '../users';

export const userIndexKeys = reindexStep(
  users,
  {
    expression:
      '#type = :users AND begins_with(pk, :tenant) AND (attribute_not_exists(#attributes.#status) OR attribute_not_exists(lsi1) OR attribute_not_exists(lsi2))',
    names: { '#type': 'type', '#attributes': 'attributes', '#status': 'status' },
    values: { ':users': 'users', ':tenant': 'ORG#' },
  },
  (user) => ({ ...user, attributes: { status: 'active', ...user.attributes } }),
);
