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
import { ConflictError, ForbiddenError, StateRefusedError } from '../jsonapi/errors';
import { allowedTransitionsFor, factsFor, lifecycleOf } from './allowed-transitions';
import type { ResourceDefinition } from './declaration';
import { guardReasons, isParked, type MoveContext, refusalOf, stateOf, verbReaching } from './lifecycle';
import { changedRecord, commitChecked, type RecordChanges, refusedAsRace } from './record-writes';

/** What a write that moves the record also does (a PATCH alias's profile change), in the same transaction. */
export interface AlsoWritten {
  changes?: RecordChanges;
  ops?: WriteOp[];
  onRefused?: (error: WriteRefused, ops: WriteOp[]) => never;
}

export interface Move {
  principal: Principal | null;
  /**
   * The system's own move (work due later: an attendance's closing time), which no permission or party
   * rule limits: said, never inferred from a missing principal. Its state and guards still hold.
   */
  system?: true;
  /** The request body, parsed by the transition's `input`; ignored by a move that takes none. */
  body?: unknown;
  now?: Date;
  also?: AlsoWritten;
  /** Where a 409 points: the state's attribute, for a PATCH alias (`moveByPatch`). */
  pointer?: string;
}

/** 409 `STATE.001`: the verbs open to the caller now, and why this one is not. */
const refused = async (
  scope: Scope,
  definition: ResourceDefinition,
  record: StoredResource,
  { principal, pointer }: Move,
  verb: string,
  reasons: string[],
): Promise<never> => {
  const open = await allowedTransitionsFor(scope, definition, record, principal);
  throw new StateRefusedError(
    {
      state: stateOf(lifecycleOf(definition), record),
      verb,
      allowed: (open ?? []).filter((t) => t.allowed).map((t) => t.verb),
      reasons,
    },
    pointer === undefined ? undefined : { pointer },
  );
};

/** Moves `record` by `verb`, or refuses: answers the record as written. */
export const moveRecord = async (
  scope: Scope,
  definition: ResourceDefinition,
  record: StoredResource,
  verb: string,
  move: Move,
): Promise<StoredResource> => (await moveAnswering(scope, definition, record, verb, move)).record;

/**
 * Moves `record` by `verb`, or refuses: the record as written, and what the move's route answers when its
 * transition `answers` another type (the record its writes give).
 */
export const moveAnswering = async (
  scope: Scope,
  definition: ResourceDefinition,
  record: StoredResource,
  verb: string,
  move: Move,
): Promise<{ record: StoredResource; answer?: StoredResource }> => {
  const { principal, system, body, now = new Date(), also = {} } = move;
  const lifecycle = lifecycleOf(definition);
  const transition = lifecycle.transitions[verb];
  if (!transition) throw new Error(`${definition.type} has no transition ${verb}`);
  // The facts its guards and party rules need; a system move, which no party rule limits, its guards'.
  const facts =
    system && transition.guards?.length
      ? await lifecycle.facts?.(scope, record, principal)
      : await factsFor(scope, definition, record, principal, [verb]);
  const checked = refusalOf(lifecycle, definition.permission, verb, record, principal, facts);
  // The service's own move (`system`) is limited by no permission or party rule.
  const refusal = system ? { ...checked, who: [] } : checked;
  // Authorisation first, as for any route: who may not move it learns nothing of its state.
  if (refusal.who.length > 0) throw new ForbiddenError(refusal.who.join(' '));
  const schema = await transition.input?.();
  // A move whose input is optional (an acceptance's reason) may come with no body at all.
  const bodiless = body === undefined && schema?.safeParse(undefined).success === true;
  // The parser (zod) loads with a move's input, never with a read (`allowedTransitionsFor`).
  const input =
    schema && !bodiless
      ? (await import('../jsonapi/request-document')).parseDocument(schema, body)
      : undefined;
  const from = stateOf(lifecycle, record, now);
  const to = transition.to ?? from;
  const refuse = (reasons: string[]) => refused(scope, definition, record, move, verb, reasons);
  if (refusal.state.length > 0) return refuse(refusal.state);
  const guarded = guardReasons(lifecycle, verb, record, facts);
  if (guarded.length > 0) return refuse(guarded);

  const context: MoveContext<never> = { principal, now, input, facts: facts as never };
  const own = transition.changes?.(record, context) ?? {};
  const work = (await transition.work?.(scope, record, context)) ?? {};
  // A record leaving the place its lifecycle parks it in goes back to its own key, created there again.
  const unparks = isParked(lifecycle, record) && to !== lifecycle.parked?.state;
  const moved = {
    ...changedRecord(
      definition,
      record,
      {
        attributes: {
          ...also.changes?.attributes,
          ...own.attributes,
          ...work.attributes,
          ...(lifecycle.attribute && { [lifecycle.attribute]: to }),
        },
        rels: { ...also.changes?.rels, ...own.rels },
        meta: { ...also.changes?.meta, ...own.meta },
      },
      now,
    ),
    ...work.stored,
    ...(unparks && definition.keyOf(record.org_id, record.id)),
  };
  const moving = { verb, from, to };
  const commit = async () => {
    const written = (await transition.writes?.(moved, record, context, scope)) ?? {};
    const next = written.record ?? moved;
    const conflicts = written.conflicts ?? [];
    const ops: WriteOp[] = [
      unparks
        ? { create: next, as: transition.event, transition: moving }
        : { replace: next, was: record, as: transition.event, transition: moving },
      ...(written.ops ?? []),
      ...conflicts.map((c) => c.op),
      ...(also.ops ?? []),
      ...(unparks ? [{ remove: { pk: record.pk, sk: record.sk } }] : []),
    ];
    const conflictAt = (error: WriteRefused) =>
      error.op === undefined ? undefined : conflicts[error.op - 1 - (written.ops ?? []).length];
    const { onRefused } = also;
    await commitChecked(scope, ops, written.checks ?? [], (error) => {
      const conflict = conflictAt(error);
      if (conflict) throw new ConflictError(conflict.detail);
      return onRefused ? onRefused(error, ops) : refusedAsRace(error);
    });
    return { record: next, ...(written.answer && { answer: written.answer }) };
  };
  // The work is undone whatever stops the move after it (its writes' reads too), before the refusal is answered.
  const done = await commit().catch(async (error: unknown) => {
    await work.undo?.();
    throw error;
  });
  await work.after?.(done.record);
  return done;
};

/**
 * A PATCH of the state under a `patchAlias`: the record moves by the transition reaching `to` from its
 * state, exactly as `POST …/<verb>` moves it (who may, guards, event, its writes), with what else the PATCH
 * changes (`move.also`) in the same transaction. When none reaches `to` from here, the move is refused as
 * one reaching it from elsewhere would be (403 to who may not make it, else 409); a refusal points at the
 * attribute. The caller leaves a PATCH that sends the state the record is in to its plain write.
 * A move that takes input (a rejection's reason) gets none from here: an alias that needs it (a proposed
 * change's decision) passes the body to `moveRecord` itself.
 */
export const moveByPatch = async (
  scope: Scope,
  definition: ResourceDefinition,
  record: StoredResource,
  to: string,
  move: Move,
): Promise<StoredResource> => {
  const lifecycle = lifecycleOf(definition);
  const pointer = `/data/attributes/${lifecycle.attribute}`;
  const verb =
    verbReaching(lifecycle, record, to) ??
    Object.keys(lifecycle.transitions).find((name) => lifecycle.transitions[name]?.to === to);
  if (!verb)
    return refused(scope, definition, record, { ...move, pointer }, 'update', [
      `No transition reaches ${to}.`,
    ]);
  return moveRecord(scope, definition, record, verb, { ...move, body: undefined, pointer });
};
