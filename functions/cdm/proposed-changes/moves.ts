/**
 * What a proposed change's decision reads and writes beside its status: the caller's duty-holder roles
 * (the other party decides, never the proposer: party rules, 403), whether the change still applies to the
 * plan (a guard: 409 `STATE.001`), and, accepted, the plan's next version in the same transaction.
 */
import type { Principal } from '#shared/auth/principal';
import { signedIn } from '#shared/auth/signed-in';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { MoveContext, MoveWrites, PartyRule } from '#shared/engine/lifecycle';
import { byPrincipal } from '#shared/engine/record-writes';
import { isPrincipal } from '../cdm-file';
import { constructionPhasePlans } from '../construction-phase-plans/definition';
import { type DutyFacts, dutyHolder, one, rolesOn } from '../construction-phase-plans/moves';
import { hazardProposals, planRisks, preConstructionInformation, siteHazards } from '../definitions';
import { changedRisk, newRisk, type PlanEdit, planEditOps } from '../plans';
import { acceptProposalOps } from '../pre-construction';
import { applyRefusal, type ChangeOperation, decidingRole, type PlanSection } from '../rules/documents';
import { dutyRoleTitles } from '../rules/duty-holders';

/** What accepting a change touches: the plan, the risk it names, the hazard or hazard proposal, the pack. */
interface AcceptanceTarget {
  plan: StoredResource;
  risk: StoredResource | null;
  proposal: StoredResource | null;
  hazard: StoredResource | null;
  /** Read only when the change accepts a pending hazard proposal, which lists the new hazard on it. */
  pack: StoredResource | null;
}

export interface DecisionFacts extends DutyFacts {
  /** Read for a pending change only (a decision is final). */
  target: AcceptanceTarget | null;
}

const targetOf = async (scope: Scope, change: StoredResource): Promise<AcceptanceTarget | null> => {
  const orgId = change.org_id;
  const id = (name: string) => (change.rels[name] as string | null | undefined) ?? null;
  const key = (
    definition: { keyOf: (org: string, id: string) => { pk: string; sk: string } },
    name: string,
  ) => {
    const value = id(name);
    return value ? definition.keyOf(orgId, value) : null;
  };
  const [plan, risk, proposal, hazard] = await Promise.all([
    one(scope, key(constructionPhasePlans, 'construction_phase_plan')),
    one(scope, key(planRisks, 'risk')),
    one(scope, key(hazardProposals, 'hazard_proposal')),
    one(scope, key(siteHazards, 'hazard')),
  ]);
  if (!plan) return null;
  const needsPack = change.attributes.operation === 'create' && proposal?.attributes.status === 'pending';
  const pack = needsPack
    ? await one(
        scope,
        preConstructionInformation.keyOf(orgId, String(plan.rels.pre_construction_information)),
      )
    : null;
  return { plan, risk, proposal, hazard, pack };
};

export const readDecisionFacts = async (
  scope: Scope,
  change: StoredResource,
  principal: Principal | null,
): Promise<DecisionFacts> => {
  const [held, target] = await Promise.all([
    rolesOn(scope, change, principal),
    change.attributes.status === 'pending' ? targetOf(scope, change) : null,
  ]);
  return { held, target };
};

const proposerRoleOf = (change: StoredResource) =>
  change.attributes.proposer_role as 'client' | 'principal_contractor';

/** Four eyes: whoever proposed a change never decides it. */
export const notTheProposer: PartyRule = (change, principal) =>
  isPrincipal(change, 'proposed_by', principal)
    ? `The proposer cannot decide their own change: the ${dutyRoleTitles[decidingRole(proposerRoleOf(change))]} on this scheme decides it.`
    : null;

/** The other party decides: the Principal Contractor a Client's change, and the other way round. */
export const theOtherParty: PartyRule<DutyFacts> = (change, principal, facts) =>
  dutyHolder(
    [decidingRole(proposerRoleOf(change))],
    `decide a change proposed by the ${dutyRoleTitles[proposerRoleOf(change)]}`,
  )(change, principal, facts);

/** A change is accepted only while it applies cleanly to the plan as it is now (`applyRefusal`). */
export const appliesCleanly = (change: StoredResource, { target }: DecisionFacts): string[] => {
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

/** Who decided, when and (a rejection always) why. */
export const decided = (_change: StoredResource, { principal, now, input }: MoveContext<DecisionFacts>) => ({
  attributes: {
    decision_reason:
      (input as { data?: { attributes?: { decision_reason?: string } } } | undefined)?.data?.attributes
        ?.decision_reason ?? null,
    decided_at: now.toISOString(),
  },
  rels: byPrincipal('decided_by', signedIn(principal)),
});

/**
 * Accepting applies the change as the plan's next version (its history entry naming the change), in the
 * decision's transaction; a new risk naming a pending hazard proposal accepts the proposal too.
 */
export const acceptanceWrites = (
  change: StoredResource,
  _before: StoredResource,
  { principal, now, facts }: MoveContext<DecisionFacts>,
): MoveWrites => {
  const { target } = facts;
  // The guard has read the target; a change is never accepted without one.
  if (!target) throw new Error(`proposed change ${change.id} accepted without its plan`);
  const { plan, risk, proposal, hazard, pack } = target;
  const who = signedIn(principal);
  const section = change.attributes.section as PlanSection;
  const operation = change.attributes.operation as ChangeOperation;
  const proposed = (change.attributes.proposed ?? {}) as Record<string, Record<string, unknown>>;
  const accepted = proposal && pack ? acceptProposalOps(pack, proposal, who, now) : null;
  const hazardId = accepted?.hazard.id ?? (proposal ? String(proposal.rels.site_hazard) : hazard?.id);
  const edit: PlanEdit =
    section !== 'risks'
      ? { sections: { [section]: proposed[section] } }
      : operation === 'create'
        ? { risk: { operation, record: newRisk(plan, proposed.risk ?? {}, hazardId ?? '', now) } }
        : operation === 'update'
          ? {
              risk: {
                operation,
                record: changedRisk(plan, risk as StoredResource, proposed.risk ?? {}, hazardId, now),
              },
            }
          : { risk: { operation: 'delete', record: risk as StoredResource } };
  return {
    ops: [
      ...planEditOps(plan, { ...edit, proposedChange: change.id }, who, now).ops,
      ...(accepted?.ops ?? []),
    ],
  };
};
