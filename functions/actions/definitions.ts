/**
 * Actions (issue 45): the follow-ups every inspection, permit and review ends in. An action is of a type
 * (`action-types.ts`), assigned to a user, a team or a job role (or nobody), about a subject, raised by a
 * producer (idempotent by its key: `action-writes.ts`), and moved through its declared state machine:
 * open → in_progress → done, or → awaiting_verification → done / back to in_progress; blocked ⇄
 * in_progress; cant_do and cancelled with a reason; reopened by a manager. `claim`, `release` and
 * `reassign` are moves that keep the status. Its parties (the assignee, the claimant, the assigned team's
 * members and its watchers) read it and make the assignee's moves with `actions:self` alone
 * (`readByParty`, each move's `byParty`), without `actions:view`.
 */
import type * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { keyFrom } from '#shared/data/access-patterns';
import { type StoredResource, tenantPattern } from '#shared/data/stored-resource';
import {
  defineLifecycle,
  type Guard,
  type MoveWrites,
  type PartyPermission,
  type PartyRule,
} from '#shared/engine/lifecycle';
import { countOnNamed } from '#shared/engine/moments';
import { polymorphicFilters } from '#shared/engine/relationship-targets';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import type { ActionFacts } from './action-facts';
import { ACTIONS_OF_TYPE, actionTypes } from './action-types';
import {
  type EvidenceKind,
  isOverdue,
  isParty,
  missingEvidence,
  PRIORITIES,
  PRODUCER_KINDS,
} from './rules/actions';

export const ACTION_STATES = [
  'open',
  'in_progress',
  'blocked',
  'awaiting_verification',
  'done',
  'cant_do',
  'cancelled',
] as const;

/** Who an action may be assigned to. */
export const assignee = { types: ['users', 'teams', 'job-roles'] } as const;
/** What an action may be about (images, submissions, permits and reviews join as their areas land). */
export const subject = {
  types: ['schemes', 'work-orders', 'operations', 'locations', 'equipment-items', 'vehicles', 'documents'],
} as const;
/** What raised it (a pointer into it in `source_pointer`). */
export const source = {
  types: ['qualification-awards', 'documents', 'schemes', 'work-orders'],
} as const;

/** The permission a party makes the assignee's moves and reads the action with. */
export const PARTY_PERMISSION = 'actions:self';

const producerClaim = {
  ...tenantPattern('action-producer-keys', '{key}'),
  about: '`holder_id`: the action a producer key made, claimed in its create’s transaction',
};

const teamsIn = (principal: Principal, orgId: string) => principal.teams[orgId] ?? [];
const idsIn = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
const textOr = (value: unknown) => (typeof value === 'string' ? value : null);

/** Whether the caller is one of the action's parties (`rules/actions.ts`). */
export const partyOf = (action: StoredResource, principal: Principal): boolean =>
  principal.kind === 'user' &&
  isParty({
    orgId: action.org_id,
    callerId: principal.id,
    callerTeams: teamsIn(principal, action.org_id),
    assignee: textOr(action.rels.assignee),
    claimedBy: textOr(action.rels.claimed_by),
    watchers: idsIn(action.rels.watchers),
  });

/** The assignee's moves: `actions:manage`, or one of the action's parties with `actions:self`. */
const byTheParties: PartyPermission = {
  permission: PARTY_PERMISSION,
  rule: (action, principal) =>
    partyOf(action, principal)
      ? null
      : 'Only the action’s assignee, claimant, assigned team’s members and watchers, or holders of actions:manage, make this move.',
};

/** A claim: a member of the team the action is assigned to. */
const byTheTeam: PartyPermission = {
  permission: PARTY_PERMISSION,
  rule: (action, principal) => {
    const team = textOr(action.rels.assignee);
    return team?.startsWith('teams:') && teamsIn(principal, action.org_id).includes(team.slice(6))
      ? null
      : 'Only a member of the team the action is assigned to claims it.';
  },
};

const holdsManage = (action: StoredResource, principal: Principal) =>
  principal.permissions.get(action.org_id)?.has('actions:manage' as never) === true;

type Move = { parties?: readonly string[]; evidence?: readonly EvidenceKind[] };
const moveOf = (facts: ActionFacts | undefined, verb: string): Move =>
  (facts?.type?.attributes.moves as Record<string, Move> | undefined)?.[verb] ?? {};

/** The type's word on who makes a move: a type naming only `managers` keeps it from the parties. */
const typeParties =
  (verb: string): PartyRule =>
  (action, principal, facts) => {
    const { parties } = moveOf(facts as ActionFacts | undefined, verb);
    return parties && !parties.includes('assignee') && !holdsManage(action, principal)
      ? `This action type lets only holders of actions:manage ${verb.replaceAll('-', ' ')} its actions.`
      : null;
  };

/** The evidence the type requires of the move, and which the action lacks: named in the 409 and `allowed_transitions`. */
const evidenceGuard =
  (verb: string): Guard<unknown> =>
  (_action, facts) =>
    missingEvidence(
      verb.replaceAll('-', ' '),
      moveOf(facts as ActionFacts | undefined, verb).evidence ?? [],
      (facts as ActionFacts | undefined)?.evidence ?? { comment: 0 },
    );

const verified = (facts: ActionFacts | undefined): boolean =>
  facts?.type?.attributes.verification_required === true;

/** A reason a move takes (cant-do, cancel, reopen, send-back). */
const reasonInput = (required: boolean) => async () => {
  const { z, requiredText } = await loadSchemaBuilders();
  const document = z.strictObject({
    data: z.strictObject({
      type: z.literal('actions'),
      attributes: z.strictObject({ reason: required ? requiredText(5000) : requiredText(5000).optional() }),
    }),
  });
  return required ? document : document.optional();
};
const reasonOf = (input: unknown) =>
  (input as { data?: { attributes?: { reason?: string } } } | undefined)?.data?.attributes?.reason ?? null;
const withReason = (_action: StoredResource, { input }: { input: unknown }) => ({
  attributes: { reason: reasonOf(input) },
});

/** The facts the guards and the type's party rules read (`action-facts.ts`), loaded when a move is weighed. */
const actionFacts = () => import('./action-facts');
/** A reassignment's writes (`action-moves.ts`), loaded when it is made. */
const actionMoves = () => import('./action-moves');

const ASSIGNEE_MOVE = { byParty: byTheParties } as const;
const UNDONE = ['open', 'in_progress', 'blocked'] as const;

export const actions = defineResource({
  type: 'actions',
  tag: 'Actions',
  names: { one: 'Action', many: 'Actions' },
  collectionPath: '/v3/orgs/{org_id}/actions',
  itemPath: '/v3/actions/{action_id}',
  permission: 'actions',
  endpoints: {
    list: true,
    get: { party: PARTY_PERMISSION },
    create: {
      handler: 'functions/actions/create-action.ts',
      // A repeated producer key answers the action it made, 200 (`action-writes.ts`).
      answers: { status: 201, resource: 'actions', found: true },
    },
    update: 'functions/actions/update-action.ts',
    delete: true,
  },
  // The generic delete's moment: the type's count and the producer key's claim go with the action.
  writes: async () => {
    const { z, requiredLine, freeText } = await loadSchemaBuilders();
    return {
      attributes: {
        title: requiredLine(255),
        description: freeText(30_000).optional(),
        priority: z.enum(PRIORITIES),
      },
      keep: (before, after) => ({
        ...countOnNamed('action_type', actionTypes, ACTIONS_OF_TYPE)(before, after),
        ops: producerClaimOps(before, after),
      }),
    };
  },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    return {
      title: z.string(),
      description: z.string(),
      status: z.enum(ACTION_STATES),
      priority: z.enum(PRIORITIES),
      due_at: instant().nullable(),
      custom_fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
      reason: z.string().nullable().describe('Why it cannot be done, was cancelled, reopened or sent back.'),
      producer: z.strictObject({ kind: z.enum(PRODUCER_KINDS), key: z.string().nullable() }),
      source_pointer: z
        .string()
        .nullable()
        .describe('A JSON Pointer into the source: the item that raised it.'),
      completed_at: instant().nullable(),
      verified_at: instant().nullable(),
    };
  },
  relationships: {
    action_type: { type: 'action-types' },
    assignee,
    claimed_by: { type: 'users' },
    subject,
    source,
    watchers: { type: 'users', many: true },
    completed_by: { type: 'users' },
    verified_by: { type: 'users' },
    created_by_user: { type: 'users' },
    created_by_service_account: { type: 'service-accounts' },
  },
  keys: {
    'producer-claim': producerClaim,
    'filter-status': {
      index: 'gsi1',
      pk: 'ORG#{org_id}#actions',
      sk: 'status#{attributes.status}#{id}',
      about: 'an action under its status, in creation order: `filter[status]`',
    },
    'filter-assignee': {
      index: 'gsi2',
      pk: 'ORG#{org_id}#actions',
      sk: 'assignee#{rels.assignee}#{id}',
      about: 'an action under its assignee (`<type>:<id>`), in creation order: `filter[assignee]`',
    },
    'filter-subject': {
      index: 'lsi2',
      pk: 'ORG#{org_id}#actions',
      sk: 'subject#{rels.subject}#{id}',
      about:
        'an action under its subject (`<type>:<id>`), in creation order, in its own partition: `filter[subject]`',
    },
  },
  collection: {
    // Indexed: status (counted) on gsi1, assignee on gsi2, subject on lsi2, due_at on its sort's lsi1, a
    // creation window on the ids; priority and producer kind narrow one of those.
    filters: {
      status: { kind: 'eq', path: 'attributes.status', index: 'filter-status', counted: true },
      assignee: { ...polymorphicFilters('assignee', assignee).assignee, index: 'filter-assignee' },
      subject: { ...polymorphicFilters('subject', subject).subject, index: 'filter-subject' },
      priority: { kind: 'eq', path: 'attributes.priority' },
      'producer.kind': { kind: 'eq', path: 'attributes.producer.kind' },
      due_at: { kind: 'time', path: 'attributes.due_at', index: 'sort-due_at' },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: { due_at: { path: 'attributes.due_at', index: 'lsi1' } },
    defaultSort: '-created_at',
    includes: ['assignee', 'subject', 'action_type', 'watchers', 'claimed_by'],
  },
  // The parties read it without `actions:view` (the item route's `party`).
  readByParty: partyOf,
  // `meta.overdue`: past its due time and still to be done, as time has moved it; `meta.version`, the
  // version its ETag names.
  derive: async (_scope, items) => {
    const now = new Date();
    return items.map((item) => ({
      ...item,
      meta: {
        ...item.meta,
        overdue: isOverdue(item.attributes.status, item.attributes.due_at, now),
        version: item.version,
      },
    }));
  },
  events: ['assigned'],
  lifecycle: defineLifecycle({
    attribute: 'status',
    states: ACTION_STATES,
    noun: 'action',
    partiesReadFacts: true,
    facts: async (scope, action, principal): Promise<ActionFacts> =>
      (await actionFacts()).readActionFacts(scope, action, principal),
    transitions: {
      start: {
        ...ASSIGNEE_MOVE,
        from: ['open'],
        to: 'in_progress',
        event: 'started',
        parties: [typeParties('start')],
        guards: [evidenceGuard('start')],
      },
      block: {
        ...ASSIGNEE_MOVE,
        from: ['in_progress'],
        to: 'blocked',
        event: 'blocked',
        parties: [typeParties('block')],
        guards: [evidenceGuard('block')],
        input: reasonInput(false),
        changes: withReason,
      },
      unblock: {
        ...ASSIGNEE_MOVE,
        from: ['blocked'],
        to: 'in_progress',
        event: 'unblocked',
        parties: [typeParties('unblock')],
        guards: [evidenceGuard('unblock')],
      },
      complete: {
        ...ASSIGNEE_MOVE,
        from: ['in_progress'],
        to: 'done',
        event: 'completed',
        parties: [typeParties('complete')],
        guards: [
          (_action, facts) =>
            verified(facts as ActionFacts)
              ? ['This action type requires verification: request-verification instead.']
              : [],
          evidenceGuard('complete'),
        ],
        changes: (_action, { principal, now }) => ({
          attributes: { completed_at: now.toISOString() },
          rels: { completed_by: principal?.kind === 'user' ? principal.id : null },
        }),
      },
      'request-verification': {
        ...ASSIGNEE_MOVE,
        from: ['in_progress'],
        to: 'awaiting_verification',
        event: 'verification-requested',
        parties: [typeParties('request-verification')],
        guards: [
          (_action, facts) =>
            verified(facts as ActionFacts)
              ? []
              : ['This action type needs no verification: complete it instead.'],
          evidenceGuard('complete'),
        ],
        changes: (_action, { principal, now }) => ({
          attributes: { completed_at: now.toISOString() },
          rels: { completed_by: principal?.kind === 'user' ? principal.id : null },
        }),
      },
      verify: {
        from: ['awaiting_verification'],
        to: 'done',
        event: 'verified',
        parties: [typeParties('verify')],
        // Four eyes: whoever completed it never verifies it.
        guards: [
          (action, facts) =>
            (facts as ActionFacts | undefined)?.callerId === action.rels.completed_by &&
            action.rels.completed_by !== null
              ? ['Whoever completed the action cannot verify it: someone else verifies it.']
              : [],
          evidenceGuard('verify'),
        ],
        changes: (_action, { principal, now }) => ({
          attributes: { verified_at: now.toISOString() },
          rels: { verified_by: principal?.kind === 'user' ? principal.id : null },
        }),
      },
      'send-back': {
        from: ['awaiting_verification'],
        to: 'in_progress',
        event: 'sent-back',
        parties: [typeParties('send-back')],
        input: reasonInput(true),
        changes: (_action, context) => ({
          attributes: { reason: reasonOf(context.input), completed_at: null },
          rels: { completed_by: null },
        }),
      },
      'cant-do': {
        ...ASSIGNEE_MOVE,
        from: UNDONE,
        to: 'cant_do',
        event: 'cant-do',
        parties: [typeParties('cant-do')],
        guards: [evidenceGuard('cant-do')],
        input: reasonInput(true),
        changes: withReason,
      },
      cancel: {
        from: [...UNDONE, 'awaiting_verification'],
        to: 'cancelled',
        event: 'cancelled',
        input: reasonInput(true),
        changes: withReason,
      },
      reopen: {
        from: ['done', 'cant_do', 'cancelled'],
        to: 'open',
        event: 'reopened',
        input: reasonInput(true),
        changes: (_action, context) => ({
          attributes: { reason: reasonOf(context.input), completed_at: null, verified_at: null },
          rels: { completed_by: null, verified_by: null, claimed_by: null },
        }),
      },
      // Moves that keep the status.
      claim: {
        byParty: byTheTeam,
        from: UNDONE,
        event: 'claimed',
        guards: [
          (_action, facts) =>
            (facts as ActionFacts | undefined)?.callerId
              ? []
              : ['Only a person claims an action: a service account cannot.'],
          (action) =>
            String(action.rels.assignee ?? '').startsWith('teams:')
              ? action.rels.claimed_by
                ? ['Someone has claimed the action already: they release it first.']
                : []
              : ['Only an action assigned to a team is claimed.'],
        ],
        changes: (_action, { principal }) => ({
          rels: { claimed_by: principal?.kind === 'user' ? principal.id : null },
        }),
      },
      release: {
        byParty: {
          permission: PARTY_PERMISSION,
          rule: (action, principal) =>
            action.rels.claimed_by === principal.id ? null : 'Only whoever claimed the action releases it.',
        },
        from: UNDONE,
        event: 'released',
        guards: [(action) => (action.rels.claimed_by ? [] : ['Nobody has claimed the action.'])],
        changes: () => ({ rels: { claimed_by: null } }),
      },
      reassign: {
        from: [...UNDONE, 'awaiting_verification'],
        event: 'assigned',
        input: async (): Promise<z.ZodType> => (await actionMoves()).reassignInput(actions),
        changes: (_action, context) => ({
          rels: { assignee: assigneeNamed(context.input), claimed_by: null },
        }),
        writes: async (moved, before): Promise<MoveWrites> =>
          (await actionMoves()).reassignWrites(actions, moved, before),
      },
    },
  }),
});

/** The new assignee a reassignment names, as stored (`<type>:<id>`), or null for none. */
const assigneeNamed = (input: unknown): string | null => {
  type Named = { data?: { relationships?: { assignee?: { data?: { type: string; id: string } | null } } } };
  const data = (input as Named | undefined)?.data?.relationships?.assignee?.data;
  return data ? `${data.type}:${data.id}` : null;
};

/** The producer key's claim: taken by the create, gone with the action. */
export const producerClaimKey = (orgId: string, key: string) =>
  keyFrom(producerClaim, { org_id: orgId, key });

const producerClaimOps = (before: StoredResource | null, after: StoredResource | null) => {
  const keyOf = (record: StoredResource | null) =>
    (record?.attributes.producer as { key?: string | null } | undefined)?.key ?? null;
  const was = keyOf(before);
  return before && !after && was ? [{ remove: producerClaimKey(before.org_id, was) }] : [];
};
