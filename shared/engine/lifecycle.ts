/**
 * A declared state machine (pure): a type names the attribute holding its state, its states, and its
 * transitions, each a verb (`approve`) with the states it leaves, the state it reaches, its event's
 * past-tense action, who may make it (a permission, then party rules such as four eyes) and its guards.
 * From that one declaration the engine derives the `POST <itemPath>/<verb>` routes, the caller's
 * `meta.allowed_transitions` on each single-record answer, the 409 `STATE.001` of a refused move and one
 * event per move (`transition.ts`). Here only what is decided from the record, the caller and the facts
 * a guard needs: no I/O, so the reasons a move is refused are the same data wherever they are asked for.
 */
import type * as z from 'zod';
import type { Principal } from '../auth/principal';
import type { Scope } from '../data/scope';
import type { ItemKey, StoredResource } from '../data/stored-resource';
import type { WriteOp } from '../data/transaction';
import type { PermissionName } from '../domain/permissions';
import type { RouteAccess } from '../http/route';

/**
 * Why a party may not make the move (the award's own person approving it), or null: answered 403. A rule
 * of a machine whose parties read facts (`partiesReadFacts`) is given them too: who may hand a plan over is
 * whoever is appointed its Principal Contractor, which only the scheme's appointments say.
 */
export type PartyRule<Facts = unknown> = (
  record: StoredResource,
  principal: Principal,
  facts: Facts,
) => string | null;

/**
 * A lesser permission that lets a party make the move on a record it is party to (a worker signing
 * themselves out with `site-attendances:self`): `rule` says why the caller is not that party, or null.
 */
export interface PartyPermission {
  permission: PermissionName;
  rule: PartyRule;
}

/** The reasons the move is refused on the record as it is (no evidence yet), none when it may go: 409. */
export type Guard<Facts> = (record: StoredResource, facts: Facts) => readonly string[];

/** What a move is given besides the record: who makes it, when, its parsed input and the guards' facts. */
export interface MoveContext<Facts = unknown> {
  principal: Principal | null;
  now: Date;
  /** The request body as the transition's `input` parsed it; undefined for a move that takes none. */
  input: unknown;
  facts: Facts;
}

/** What a move writes beyond the new state, in its own transaction. */
export interface MoveWrites {
  /** The record to write instead of the one given (the same version, with a due-work entry noted). */
  record?: StoredResource;
  ops?: WriteOp[];
  /**
   * Ops proving what the move relies on (the award's person still there): refused, a 400 at the pointer
   * (a `Check`, spelt out: the declaration's types import these).
   */
  checks?: { op: WriteOp; pointer: string }[];
  /** Ops another record may hold against the move (an address a newer invitation claims): refused, a 409. */
  conflicts?: { op: WriteOp; detail: string }[];
  /** The record the route answers, of the transition's `answers` type, as these ops write it. */
  answer?: StoredResource;
}

/**
 * What a move's bespoke work did once the move may go, before it commits (S3's copy of an upload, checked;
 * a new token): what it sets on the record, how it is undone if the commit is refused, what follows it.
 */
export interface MoveWork {
  /** Attributes set beside the state (what the accepted copy measured). */
  attributes?: Record<string, unknown>;
  /** Stored on the record and never answered (the accepted copy's key, a token's hash). */
  stored?: Record<string, unknown>;
  /** Undoes the work when the commit is refused (the copy deleted), before the refusal is answered. */
  undo?: () => Promise<void>;
  /** Runs once the move is committed, never for a refused one (the e-mail carrying the new token). */
  after?: (written: StoredResource) => Promise<void>;
}

export interface TransitionDeclaration<Facts = never> {
  /** Its route's id, when the move had a route before it was declared (`handOverConstructionPhasePlan`). */
  operationId?: string;
  from: readonly string[];
  /** The state it reaches; omitted, the move keeps the state it finds (a claim of an action). */
  to?: string;
  /** The event's action, past tense: `approved` makes `qualification-award.approved`. */
  event: string;
  /** Who may: the type's `<family>:manage` unless named. */
  permission?: PermissionName;
  /** Or a lesser permission, for the party the rule names (its route reaches those who hold it: `party`). */
  byParty?: PartyPermission;
  /**
   * A move only the service's own workers make (a job finishing): no route, not among a client's
   * `allowed_transitions`; the worker asks `workerRefusal` before it writes the state.
   */
  by?: 'worker';
  parties?: readonly PartyRule<Facts>[];
  /** What its route's function may touch beyond writing the table (the bucket its `work` copies in). */
  access?: RouteAccess;
  /**
   * The type its route answers when not the record's own (a version's completion answers its document,
   * which the completion made current): its `writes` give that record as `answer`.
   */
  answers?: string;
  guards?: readonly Guard<Facts>[];
  /** The request document it requires (a reason): parsed before anything is read beyond the record. */
  input?: () => Promise<z.ZodType> | z.ZodType;
  /** Attributes, relationships and meta the move sets beside the state (who verified, when). */
  changes?: (
    record: StoredResource,
    context: MoveContext<Facts>,
  ) => {
    attributes?: Record<string, unknown>;
    rels?: StoredResource['rels'];
    meta?: Record<string, unknown>;
  };
  /**
   * I/O the move needs once it is allowed and before it commits (the uploaded object copied and checked):
   * never run to answer `allowed_transitions`, so a read has no effect.
   */
  work?: (scope: Scope, record: StoredResource, context: MoveContext<Facts>) => Promise<MoveWork>;
  /**
   * Ops beside the record (due-work entries, what other records keep of it), given the record as moved;
   * may load its module when called, so the declaration's readers do not carry the writes, and read, with
   * the caller's scope, the records it writes (a version's document and folder).
   */
  writes?: (
    moved: StoredResource,
    before: StoredResource,
    context: MoveContext<Facts>,
    scope: Scope,
  ) => MoveWrites | Promise<MoveWrites>;
}

export interface LifecycleDeclaration<Facts = never> {
  /** The attribute holding the state (`status`): never written by a PATCH, unless `patchAlias`. */
  attribute?: string;
  /**
   * The state read from what the record keeps, as time has moved it: for a type that stores none (an
   * attendance is on site until it has an end: its moves' `changes` set that, and no PATCH can name it), or
   * one that time moves without a write (a pending invitation past its expiry is expired to every move and
   * answer). The stored attribute, unless declared.
   */
  state?: (record: StoredResource, now: Date) => string;
  states: readonly string[];
  /**
   * A state kept as a place instead (a deleted node, parked out of its collection and its tree): where a
   * record in it is stored. A move reads the record there when its own key holds none, and a move out of
   * it writes the record back to its own key (created again, so counted again) and removes the parked copy.
   */
  parked?: { state: string; keyOf: (orgId: string, id: string) => ItemKey };
  /** What the record is called in a reason: `award` makes "An award rejected cannot be approved." */
  noun: string;
  /** The noun's article when its first letter misleads (`A` user): else `An` before a vowel, `A` otherwise. */
  article?: 'A' | 'An';
  /**
   * What the guards need beyond the record, read with the caller's scope in one round trip (an award's
   * type and evidence tally); read only when a move that has guards is otherwise open to the caller, or,
   * for a machine whose parties read them, when the caller holds a move's permission.
   */
  facts?: (scope: Scope, record: StoredResource, principal: Principal | null) => Promise<Facts>;
  /**
   * The party rules read the facts (the caller's duty-holder roles on a scheme): still 403, but decided
   * after the facts are read, for a caller holding the move's permission.
   */
  partiesReadFacts?: true;
  transitions: Readonly<Record<string, TransitionDeclaration<Facts>>>;
  /**
   * A PATCH naming the attribute moves the record through the transition reaching the state sent (its
   * permission, parties, guards and event): a documented alias kept for clients that PATCH it today. Its
   * transitions take no `input`: the PATCH body is not theirs to parse.
   */
  patchAlias?: true;
}

/** One verb as the caller sees it on the record: `meta.allowed_transitions`. */
export interface AllowedTransition {
  verb: string;
  allowed: boolean;
  reasons: string[];
}

/**
 * Declares a type's machine, typing the guards by the facts its loader reads and keeping the verbs and
 * permissions as written, so the routes derived from them are typed (`area.ts`).
 */
export const defineLifecycle = <
  Facts,
  const Transitions extends Readonly<Record<string, TransitionDeclaration<Facts>>>,
>(
  lifecycle: Omit<LifecycleDeclaration<Facts>, 'transitions'> & { transitions: Transitions },
) => lifecycle as unknown as LifecycleDeclaration & { transitions: Transitions };

const articleOf = ({ noun, article }: LifecycleDeclaration) =>
  article ?? (/^[aeiou]/i.test(noun) ? 'An' : 'A');
const spoken = (word: string) => word.replaceAll(/[_-]/g, ' ');

/** Whether the record was read where its lifecycle parks it (`parked`). */
export const isParked = ({ parked }: LifecycleDeclaration, record: StoredResource): boolean => {
  const key = parked?.keyOf(record.org_id, record.id);
  return key !== undefined && key.pk === record.pk && key.sk === record.sk;
};

export const stateOf = (
  lifecycle: LifecycleDeclaration,
  record: StoredResource,
  now: Date = new Date(),
): string =>
  (isParked(lifecycle, record) ? lifecycle.parked?.state : undefined) ??
  lifecycle.state?.(record, now) ??
  String(record.attributes[lifecycle.attribute ?? ''] ?? '');

/** The verbs a client may ask for: every declared one but the workers'. */
export const clientVerbs = (lifecycle: LifecycleDeclaration): string[] =>
  Object.entries(lifecycle.transitions)
    .filter(([, transition]) => transition.by !== 'worker')
    .map(([verb]) => verb);

/** Why a worker may not make its move on the record as it is (a job finished twice), or none. */
export const workerRefusal = (
  lifecycle: LifecycleDeclaration,
  verb: string,
  record: StoredResource,
): string[] => refusalOf(lifecycle, undefined, verb, record, null).state;

/** The permission a transition needs: its own, else the family's `manage`. */
export const transitionPermission = (
  family: string | undefined,
  transition: Pick<TransitionDeclaration, 'permission'>,
): string => transition.permission ?? `${family}:manage`;

/** The reasons of each kind a move is refused for the caller, before and after its facts are read. */
export interface Refusal {
  /** Authorisation: the permission or a party rule (403). */
  who: string[];
  /** The record's state and the guards (409 `STATE.001`). */
  state: string[];
}

const holds = (principal: Principal | null, record: StoredResource, permission: string) =>
  principal?.permissions.get(record.org_id)?.has(permission as never) === true;

/**
 * Why the caller may not make this move on the record as it is: its permission and party rules, its
 * state. `facts` is what the loader read, or undefined when the move did not need it: then party rules
 * that read facts are not asked (the permission the caller lacks is reason enough).
 */
export const refusalOf = (
  lifecycle: LifecycleDeclaration,
  family: string | undefined,
  verb: string,
  record: StoredResource,
  principal: Principal | null,
  facts?: unknown,
): Refusal => {
  const transition = lifecycle.transitions[verb];
  if (!transition) return { who: [], state: [`No transition ${verb}.`] };
  const permission = transitionPermission(family, transition);
  const { byParty } = transition;
  // Held as the party, the party rule's reason when the caller is not it; undefined when not held.
  const asParty =
    principal && byParty && holds(principal, record, byParty.permission)
      ? byParty.rule(record, principal, facts)
      : undefined;
  const held = holds(principal, record, permission) || asParty === null;
  const parties = lifecycle.partiesReadFacts && facts === undefined ? [] : (transition.parties ?? []);
  const who = [
    ...(held ? [] : [asParty ?? `Needs the ${permission} permission.`]),
    ...(principal ? parties.flatMap((rule) => rule(record, principal, facts as never) ?? []) : []),
  ];
  const state = stateOf(lifecycle, record);
  const wrongState = transition.from.includes(state)
    ? []
    : [`${articleOf(lifecycle)} ${lifecycle.noun} ${spoken(state)} cannot be ${spoken(transition.event)}.`];
  return { who, state: wrongState };
};

/**
 * Whether the caller's move needs the facts read: its party rules read them and the caller holds its
 * permission, or it is otherwise open to the caller and guarded.
 */
export const needsFacts = (
  lifecycle: LifecycleDeclaration,
  family: string | undefined,
  verb: string,
  record: StoredResource,
  principal: Principal | null,
): boolean => {
  const transition = lifecycle.transitions[verb];
  if (!transition) return false;
  if (
    lifecycle.partiesReadFacts &&
    (transition.parties ?? []).length > 0 &&
    holds(principal, record, transitionPermission(family, transition))
  )
    return true;
  const refusal = refusalOf(lifecycle, family, verb, record, principal);
  return refusal.who.length === 0 && refusal.state.length === 0 && (transition.guards ?? []).length > 0;
};

/** The guards' reasons, given the facts they read. */
export const guardReasons = (
  lifecycle: LifecycleDeclaration,
  verb: string,
  record: StoredResource,
  facts: unknown,
): string[] => (lifecycle.transitions[verb]?.guards ?? []).flatMap((guard) => guard(record, facts as never));

/**
 * Every verb as the caller sees it on the record: allowed, or the reasons not (permission, party rules,
 * state, guards). `facts` is what the loader read, or undefined when no open move needed it.
 */
export const allowedTransitions = (
  lifecycle: LifecycleDeclaration,
  family: string | undefined,
  record: StoredResource,
  principal: Principal | null,
  facts: unknown,
): AllowedTransition[] =>
  clientVerbs(lifecycle).map((verb) => {
    const read = needsFacts(lifecycle, family, verb, record, principal) ? facts : undefined;
    const refusal = refusalOf(lifecycle, family, verb, record, principal, read);
    const open = refusal.who.length === 0 && refusal.state.length === 0;
    const guarded = open ? guardReasons(lifecycle, verb, record, read) : [];
    const reasons = [...refusal.who, ...refusal.state, ...guarded];
    return { verb, allowed: reasons.length === 0, reasons };
  });

/** The transition that reaches `to` from the record's state, for a PATCH alias; undefined when none does. */
export const verbReaching = (
  lifecycle: LifecycleDeclaration,
  record: StoredResource,
  to: string,
): string | undefined =>
  Object.entries(lifecycle.transitions).find(
    ([, transition]) => transition.to === to && transition.from.includes(stateOf(lifecycle, record)),
  )?.[0];
