/**
 * Who in an organisation meets a specification today (users' `filter[compliant_with]`): the users the
 * other filters select, read as any filtered users list reads them, each measured by the awards kept on
 * their record; nothing more is read.
 */

import { users } from '#functions/people/users';
import type { CollectionQuery } from '#shared/data/collection-query';
import { UUID } from '#shared/data/ids';
import { applyInMemory } from '#shared/data/in-memory-collection';
import { batchGetInScope, streamPartition } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { ValidationError } from '#shared/jsonapi/errors';
import { qualificationSpecifications } from './definitions';
import { meets } from './evaluation';
import { dayOf } from './rules/awards';
import type { Rule } from './rules/rules';

export const COMPLIANT_WITH = 'filter[compliant_with]';

/** The page reader of users who meet the specification, in an organisation. */
export const compliantReader = async (
  scope: Scope,
  orgId: string,
  specificationId: string,
  now = Date.now(),
) => {
  if (!UUID.test(specificationId))
    throw new ValidationError({
      detail: `${COMPLIANT_WITH} must be a specification id.`,
      source: { parameter: COMPLIANT_WITH },
    });
  const [specification] = await batchGetInScope(scope, [
    qualificationSpecifications.keyOf(orgId, specificationId),
  ]);
  if (!specification)
    throw new ValidationError({
      detail: `No qualification specification ${specificationId} in this organisation.`,
      source: { parameter: COMPLIANT_WITH },
    });
  const rule = specification.attributes.rule as Rule;
  const day = dayOf(now);
  return async (query: CollectionQuery) => {
    const compliant: StoredResource[] = [];
    for await (const page of streamPartition(scope, orgId, users.type, query))
      compliant.push(...page.items.filter((user) => meets(rule, user, day)));
    return applyInMemory(compliant, query);
  };
};
