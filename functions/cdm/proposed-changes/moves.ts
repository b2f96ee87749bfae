/**
 * What a proposed change's decision reads and writes beside its status: the caller's duty-holder roles
 * (which the party rules in `definition.ts` decide from: 403), the records its guard decides whether the
 * change still applies to (409 `STATE.001`), and, accepted, the plan's next version in the same
 * transaction. The declaration loads this module when a move is made or asked about.
 */
import type { Principal } from '#shared/auth/principal';
import { signedIn } from '#shared/auth/signed-in';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { MoveContext, MoveWrites } from '#shared/engine/lifecycle';
import { constructionPhasePlans } from '../construction-phase-plans/definition';
import { one, rolesOn } from '../construction-phase-plans/moves';
import { planRisks, preConstructionInformation, siteHazards } from '../definitions';
import { hazardProposals } from '../hazard-proposals/definition';
import type { AcceptanceTarget, DecisionFacts } from '../move-facts';
import { changedRisk, newRisk, type PlanEdit, planEditOps } from '../plans';
import { acceptProposalOps } from '../pre-construction';
import type { ChangeOperation, PlanSection } from '../rules/documents';

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
                was: risk as StoredResource,
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
