/**
 * Moving a record through its declared state machine (`lifecycle.ts`): who may (403), its state and guards
 * (409 `STATE.001` with the verbs open now and every reason), its input (400), then the record at its next
 * version, what the move writes beside it and its event (`<type>.<event>` carrying `from` and `to`) in one
 * transaction conditional on the version read, so `If-Match` holds and a race is refused, never merged.
 */
import type { Principal } from '../auth/principal';
import type { Scope } from '../data/scope';
import type { StoredResource } from '../data/stored-resource';
import type { WriteOp, WriteRefused } from '../data/transaction';
import { ForbiddenError, StateRefusedError, ValidationError } from '../jsonapi/errors';
import { parseDocument } from '../jsonapi/request-document';
import type { ResourceDefinition } from './declaration';
import {
  type AllowedTransition,
  allowedTransitions,
  guardReasons,
  type LifecycleDeclaration,
  type MoveContext,
  needsFacts,
  refusalOf,
  stateOf,
} from './lifecycle';
import { changedRecord, commitChecked, type RecordChanges } from './record-writes';

const lifecycleOf = (definition: ResourceDefinition): LifecycleDeclaration => {
  if (!definition.lifecycle) throw new Error(`${definition.type} declares no lifecycle`);
  return definition.lifecycle;
};

/** The facts the guards of the moves otherwise open to the caller need: read once, or not at all. */
const factsFor = async (
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
  const facts = await factsFor(scope, definition, record, principal, Object.keys(lifecycle.transitions));
  return allowedTransitions(lifecycle, definition.permission, record, principal, facts);
};

/** What a write that moves the record also does (a PATCH alias's profile change), in the same transaction. */
export interface AlsoWritten {
  changes?: RecordChanges;
  ops?: WriteOp[];
  onRefused?: (error: WriteRefused, ops: WriteOp[]) => never;
}

export interface Move {
  principal: Principal | null;
  /** The request body, parsed by the transition's `input`; ignored by a move that takes none. */
  body?: unknown;
  now?: Date;
  also?: AlsoWritten;
}

/** Moves `record` by `verb`, or refuses: answers the record as written. */
export const moveRecord = async (
  scope: Scope,
  definition: ResourceDefinition,
  record: StoredResource,
  verb: string,
  { principal, body, now = new Date(), also = {} }: Move,
): Promise<StoredResource> => {
  const lifecycle = lifecycleOf(definition);
  const transition = lifecycle.transitions[verb];
  if (!transition) throw new Error(`${definition.type} has no transition ${verb}`);
  const facts = await factsFor(scope, definition, record, principal, [verb]);
  const refusal = refusalOf(lifecycle, definition.permission, verb, record, principal, facts);
  // Authorisation first, as for any route: who may not move it learns nothing of its state.
  if (refusal.who.length > 0) throw new ForbiddenError(refusal.who.join(' '));
  const schema = transition.input?.();
  // A move whose input is optional (an acceptance's reason) may come with no body at all.
  const bodiless = body === undefined && schema?.safeParse(undefined).success === true;
  const input = schema && !bodiless ? parseDocument(schema, body) : undefined;
  const from = stateOf(lifecycle, record);
  const refuse = async (reasons: string[]): Promise<never> => {
    const open = await allowedTransitionsFor(scope, definition, record, principal);
    throw new StateRefusedError({
      state: from,
      verb,
      allowed: (open ?? []).filter((t) => t.allowed).map((t) => t.verb),
      reasons,
    });
  };
  if (refusal.state.length > 0) return refuse(refusal.state);
  const guarded = guardReasons(lifecycle, verb, record, facts);
  if (guarded.length > 0) return refuse(guarded);

  const context: MoveContext<never> = { principal, now, input, facts: facts as never };
  const own = transition.changes?.(record, context) ?? {};
  const moved = changedRecord(
    definition,
    record,
    {
      attributes: { ...also.changes?.attributes, ...own.attributes, [lifecycle.attribute]: transition.to },
      rels: { ...also.changes?.rels, ...own.rels },
      meta: { ...also.changes?.meta, ...own.meta },
    },
    now,
  );
  const written = transition.writes?.(moved, record, context) ?? {};
  const next = written.record ?? moved;
  const ops: WriteOp[] = [
    { replace: next, as: transition.event, transition: { verb, from, to: transition.to } },
    ...(written.ops ?? []),
    ...(also.ops ?? []),
  ];
  const { onRefused } = also;
  await commitChecked(scope, ops, written.checks ?? [], onRefused && ((error) => onRefused(error, ops)));
  return next;
};

/**
 * A PATCH body naming the machine's attribute is 400 at it, naming the transitions that move it instead,
 * unless the type declares the PATCH an alias of its transitions (`patchAlias`). Before the body is parsed,
 * so the answer says where to go rather than that the member is unknown.
 */
export const refuseStateInPatch = (definition: ResourceDefinition, body: unknown): void => {
  const { lifecycle } = definition;
  if (!lifecycle || lifecycle.patchAlias) return;
  const attributes = (body as { data?: { attributes?: unknown } } | null)?.data?.attributes;
  if (typeof attributes !== 'object' || attributes === null || !(lifecycle.attribute in attributes)) return;
  const verbs = Object.keys(lifecycle.transitions).map((verb) => `POST …/${verb}`);
  throw new ValidationError({
    detail: `${lifecycle.attribute} is changed by a transition, not a PATCH: ${verbs.join(', ')}.`,
    source: { pointer: `/data/attributes/${lifecycle.attribute}` },
  });
};
