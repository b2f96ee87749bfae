/**
 * A proposed change to a handed-over plan, and its moves (`moves.ts`): the other party accepts it (applied
 * as the plan's next version) or rejects it with a reason; the proposer never decides it.
 */
import * as z from 'zod';
import { defineLifecycle } from '#shared/engine/lifecycle';
import { defineResource } from '#shared/engine/resource-definition';
import { requiredText } from '#shared/jsonapi/attribute-types';
import { jsonObject } from '#shared/jsonapi/served-types';
import { byCreation, decider, decision, status } from '../definitions';
import { type PlanSection, planSections } from '../rules/documents';
import { dutyRoles } from '../rules/duty-holders';
import {
  acceptanceWrites,
  appliesCleanly,
  decided,
  notTheProposer,
  readDecisionFacts,
  theOtherParty,
} from './moves';

const CHANGE_STATUSES = ['pending', 'accepted', 'rejected'] as const;

/** A decision's document (`POST …/accept`, `…/reject`): the reason, which a rejection must give. */
const decisionInput = (reason: 'required' | 'optional') => () => {
  const decisionReason = requiredText(5000);
  const document = z.strictObject({
    data: z.strictObject({
      type: z.literal('construction-phase-plan-proposed-changes'),
      attributes: z.strictObject({
        decision_reason: reason === 'required' ? decisionReason : decisionReason.optional(),
      }),
    }),
  });
  // An acceptance may come with no body at all.
  return reason === 'required' ? document : document.optional();
};

export const proposedChanges = defineResource({
  type: 'construction-phase-plan-proposed-changes',
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
  served: () => ({
    reason: z.string(),
    section: z.enum(Object.keys(planSections) as [PlanSection, ...PlanSection[]]),
    operation: z.enum(['replace', 'create', 'update', 'delete']),
    proposed: jsonObject().nullable(),
    status: z.enum(CHANGE_STATUSES),
    proposer_role: z.enum(dutyRoles),
    ...decision(),
  }),
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
    facts: readDecisionFacts,
    partiesReadFacts: true,
    patchAlias: true,
    transitions: {
      accept: {
        from: ['pending'],
        to: 'accepted',
        event: 'accepted',
        parties: [notTheProposer, theOtherParty],
        guards: [appliesCleanly],
        input: decisionInput('optional'),
        changes: decided,
        writes: acceptanceWrites,
      },
      reject: {
        from: ['pending'],
        to: 'rejected',
        event: 'rejected',
        parties: [notTheProposer, theOtherParty],
        input: decisionInput('required'),
        changes: decided,
      },
    },
  }),
});
