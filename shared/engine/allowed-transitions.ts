/**
 * What a reader is told of a record's state machine (`meta.allowed_transitions`): the moves open to the
 * caller now. Apart from `transition.ts`, which makes a move, so a read loads none of the write machinery.
 */
import type { Principal } from '../auth/principal';
import type { Scope } from '../data/scope';
import type { StoredResource } from '../data/stored-resource';
import type { ResourceDefinition } from './declaration';
import {
  type AllowedTransition,
  allowedTransitions,
  clientVerbs,
  type LifecycleDeclaration,
  needsFacts,
} from './lifecycle';

export const lifecycleOf = (definition: ResourceDefinition): LifecycleDeclaration => {
  if (!definition.lifecycle) throw new Error(`${definition.type} declares no lifecycle`);
  return definition.lifecycle;
};

/** The facts the guards of the moves otherwise open to the caller need: read once, or not at all. */
export const factsFor = async (
  scope: Scope,
  definition: ResourceDefinition,
  record: StoredResource,
  principal: Principal | null,
  verbs: readonly string[],
): Promise<unknown> => {
  const lifecycle = lifecycleOf(definition);
  const needed = verbs.some((verb) => needsFacts(lifecycle, definition.permission, verb, record, principal));
  return needed ? lifecycle.facts?.(scope, record, principal) : undefined;
};

/** `meta.allowed_transitions` of a record for the caller; undefined for a type with no lifecycle. */
export const allowedTransitionsFor = async (
  scope: Scope,
  definition: ResourceDefinition,
  record: StoredResource,
  principal: Principal | null,
): Promise<AllowedTransition[] | undefined> => {
  const { lifecycle } = definition;
  if (!lifecycle) return undefined;
  const facts = await factsFor(scope, definition, record, principal, clientVerbs(lifecycle));
  return allowedTransitions(lifecycle, definition.permission, record, principal, facts);
};
