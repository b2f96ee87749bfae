/**
 * A proposed change to a handed-over plan, and its moves: the other party accepts it (applied as the plan's
 * next version) or rejects it with a reason; the proposer never decides it. Who may and when are decided
 * here from the facts `moves.ts` reads; what a decision reads and writes loads only when a move is made or
 * asked about, so the functions that merely read this declaration carry none of it.
 */
import type { Principal } from '#shared/auth/principal';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { defineLifecycle, type PartyRule } from '#shared/engine/lifecycle';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import { dutyHolder } from '../construction-phase-plans/definition';
import { byCreation, decided, decider, decision, decisionInput, status } from '../definitions';
import type { DecisionFacts, DutyFacts } from '../move-facts';
import {
  applyRefusal,
  type ChangeOperation,
  decidingRole,
  type PlanSection,
  planSections,
} from '../rules/documents';
import { dutyRoles, dutyRoleTitles } from '../rules/duty-holders';

/** A decision's facts and an acceptance's writes (`moves.ts`): every function reads this, few decide. */
const moves = () => import('./moves');

const CHANGE = 'construction-phase-plan-proposed-changes';
const CHANGE_STATUSES = ['pending', 'accepted', 'rejected'] as const;

const proposerRoleOf = (change: StoredResource) =>
  change.attributes.proposer_role as 'client' | 'principal_contractor';

/** Whether `principal` is the one a `<prefix>_*` pair names. */
const isPrincipal = (record: StoredResource, prefix: string, principal: Principal): boolean =>
  record.rels[`${prefix}_user`] === principal.id || record.rels[`${prefix}_service_account`] === principal.id;

/** Four eyes: whoever proposed a change never decides it. */
const notTheProposer: PartyRule = (change, principal) =>
  isPrincipal(change, 'proposed_by', principal)
    ? `The proposer cannot decide their own change: the ${dutyRoleTitles[decidingRole(proposerRoleOf(change))]} on this scheme decides it.`
    : null;

/** The other party decides: the Principal Contractor a Client's change, and the other way round. */
const theOtherParty: PartyRule<DutyFacts> = (change, principal, facts) =>
  dutyHolder(
    [decidingRole(proposerRoleOf(change))],
    `decide a change proposed by the ${dutyRoleTitles[proposerRoleOf(change)]}`,
  )(change, principal, facts);

/** A change is accepted only while it applies cleanly to the plan as it is now (`applyRefusal`). */
const appliesCleanly = (change: StoredResource, { target }: DecisionFacts): string[] => {
  if (!target) return ['The plan this change is to is no longer there.'];
  const { plan, risk, proposal, hazard } = target;
  const section = change.attributes.section as PlanSection;
  const operation = change.attributes.operation as ChangeOperation;
  const hazardAvailable = proposal
    ? proposal.attributes.status !== 'rejected'
    : hazard?.attributes.status === 'active' &&
      hazard.rels.pre_construction_information === plan.rels.pre_construction_information;
  const refusal = applyRefusal({
    basedOnVersion: Number(change.meta.based_on_version),
    section,
    operation,
    sectionChangedAt: Number((plan.meta.section_versions as Record<string, number>)[section] ?? 0),
    riskChangedAt: risk ? Number(risk.meta.plan_version ?? 0) : null,
    hazardAvailable: operation !== 'create' || hazardAvailable,
  });
  return refusal ? [refusal] : [];
};

export const proposedChanges = defineResource({
  type: CHANGE,
  names: { one: 'ProposedChange', many: 'ProposedChanges' },
  collectionPath: '/v3/construction-phase-plans/{construction_phase_plan_id}/proposed-changes',
  itemPath: '/v3/construction-phase-plan-proposed-changes/{proposed_change_id}',
  permission: 'construction-phase-plans',
  endpoints: {
    list: 'functions/cdm/proposed-changes/list.ts',
    get: true,
    // The spec: 200 with the pending change.
    create: {
      handler: 'functions/cdm/proposed-changes/create.ts',
      answers: { status: 200, resource: 'construction-phase-plan-proposed-changes' },
    },
  },
  served: async () => {
    const { z, jsonObject } = await loadSchemaBuilders();
    return {
      reason: z.string(),
      section: z.enum(Object.keys(planSections) as [PlanSection, ...PlanSection[]]),
      operation: z.enum(['replace', 'create', 'update', 'delete']),
      proposed: jsonObject().nullable(),
      status: z.enum(CHANGE_STATUSES),
      proposer_role: z.enum(dutyRoles),
      ...(await decision()),
    };
  },
  relationships: {
    scheme: { type: 'schemes' },
    construction_phase_plan: { type: 'construction-phase-plans' },
    risk: { type: 'construction-phase-plan-risks' },
    hazard: { type: 'site-hazards' },
    hazard_proposal: { type: 'hazard-proposals' },
    proposed_by_user: { type: 'users' },
    proposed_by_service_account: { type: 'service-accounts' },
    ...decider,
  },
  collection: byCreation({ ...status, section: { kind: 'eq', path: 'attributes.section' } }, [
    'risk',
    'hazard',
    'hazard_proposal',
  ]),
  // The other party decides; a decision is final. PATCH of `status` stays, an alias of the two moves.
  lifecycle: defineLifecycle({
    attribute: 'status',
    states: CHANGE_STATUSES,
    noun: 'proposed change',
    facts: async (
      scope: Scope,
      record: StoredResource,
      principal: Principal | null,
    ): Promise<DecisionFacts> => (await moves()).readDecisionFacts(scope, record, principal),
    partiesReadFacts: true,
    patchAlias: true,
    transitions: {
      accept: {
        from: ['pending'],
        to: 'accepted',
        event: 'accepted',
        parties: [notTheProposer, theOtherParty],
        guards: [appliesCleanly],
        input: decisionInput(CHANGE, 'optional'),
        changes: decided,
        writes: async (moved, before, context) => (await moves()).acceptanceWrites(moved, before, context),
      },
      reject: {
        from: ['pending'],
        to: 'rejected',
        event: 'rejected',
        parties: [notTheProposer, theOtherParty],
        input: decisionInput(CHANGE, 'required'),
        changes: decided,
      },
    },
  }),
});
