/**
 * The construction phase plan (one per scheme) and its one move, handover (`moves.ts`): the Principal
 * Contractor hands over a complete plan, after which it changes only through proposed changes.
 */
import * as z from 'zod';
import { defineLifecycle } from '#shared/engine/lifecycle';
import { byPrincipal } from '#shared/engine/moments';
import { defineResource } from '#shared/engine/resource-definition';
import { author, byCreation, PLAN_STATUSES, sectionsOf, status } from '../definitions';
import { planContentSections } from '../rules/documents';
import { completeForHandover, dutyHolder, handoverWrites, readHandoverFacts } from './moves';

export const constructionPhasePlans = defineResource({
  type: 'construction-phase-plans',
  names: { one: 'ConstructionPhasePlan', many: 'ConstructionPhasePlans' },
  collectionPath: '/v3/construction-phase-plans',
  itemPath: '/v3/construction-phase-plans/{construction_phase_plan_id}',
  permission: 'construction-phase-plans',
  endpoints: { list: true, get: true, update: 'functions/cdm/construction-phase-plans/update.ts' },
  served: () => ({ sections: sectionsOf(planContentSections), status: z.enum(PLAN_STATUSES) }),
  relationships: {
    scheme: { type: 'schemes' },
    pre_construction_information: { type: 'pre-construction-information' },
    risks: { type: 'construction-phase-plan-risks', many: true },
    ...author,
    handed_over_by_user: { type: 'users' },
    handed_over_by_service_account: { type: 'service-accounts' },
  },
  collection: byCreation({ ...status, scheme: { kind: 'eq', path: 'rels.scheme' } }, [
    'scheme',
    'pre_construction_information',
    'risks',
    'risks.hazard',
  ]),
  // Handed over, a plan changes only through proposed changes (`proposedChanges`).
  lifecycle: defineLifecycle({
    attribute: 'status',
    states: PLAN_STATUSES,
    noun: 'plan',
    facts: readHandoverFacts,
    partiesReadFacts: true,
    transitions: {
      handover: {
        operationId: 'handOverConstructionPhasePlan',
        from: ['draft'],
        to: 'handed_over',
        event: 'handed-over',
        parties: [dutyHolder(['principal_contractor'], 'hand over the construction phase plan')],
        guards: [completeForHandover],
        changes: (plan, { principal, now }) => ({
          meta: { version: plan.version + 1, handed_over_at: now.toISOString() },
          rels: byPrincipal('handed_over_by', principal),
        }),
        writes: handoverWrites,
      },
    },
  }),
});
