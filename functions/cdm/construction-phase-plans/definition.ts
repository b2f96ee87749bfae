/**
 * The construction phase plan (one per scheme) and its one move, handover: the Principal Contractor hands
 * over a complete plan, after which it changes only through proposed changes. Who may and when are decided
 * here from the facts `moves.ts` reads; what the move reads and writes loads only when a move is made or
 * asked about, so the functions that merely read this declaration carry none of it.
 */
import type { Principal } from '#shared/auth/principal';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { defineLifecycle, type PartyRule } from '#shared/engine/lifecycle';
import { byPrincipal } from '#shared/engine/moments';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import { author, byCreation, PLAN_STATUSES, sectionsOf, status } from '../definitions';
import type { DutyFacts, HandoverFacts } from '../move-facts';
import { handoverGaps, planContentSections } from '../rules/documents';
import { type DutyRole, roleRefusal } from '../rules/duty-holders';

/** The handover's facts and history entry (`moves.ts`): every function reads this declaration, few hand over. */
const moves = () => import('./moves');

/** Only a holder of one of `anyOf` on the scheme may make the move (CDM 2015's duty holders). */
export const dutyHolder =
  (anyOf: readonly DutyRole[], action: string): PartyRule<DutyFacts> =>
  (_record, _principal, { held }) =>
    roleRefusal(held, anyOf, action);

/** A plan is handed over complete (`handoverGaps`): each gap is a reason. */
const completeForHandover = (_plan: StoredResource, { completeness }: HandoverFacts): string[] =>
  completeness ? handoverGaps(completeness).map((gap) => `The plan is not complete: ${gap}.`) : [];

export const constructionPhasePlans = defineResource({
  type: 'construction-phase-plans',
  names: { one: 'ConstructionPhasePlan', many: 'ConstructionPhasePlans' },
  collectionPath: '/v3/construction-phase-plans',
  itemPath: '/v3/construction-phase-plans/{construction_phase_plan_id}',
  permission: 'construction-phase-plans',
  endpoints: { list: true, get: true, update: 'functions/cdm/construction-phase-plans/update.ts' },
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return { sections: await sectionsOf(planContentSections), status: z.enum(PLAN_STATUSES) };
  },
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
    facts: async (
      scope: Scope,
      record: StoredResource,
      principal: Principal | null,
    ): Promise<HandoverFacts> => (await moves()).readHandoverFacts(scope, record, principal),
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
        writes: async (moved, before, context) => (await moves()).handoverWrites(moved, before, context),
      },
    },
  }),
});
