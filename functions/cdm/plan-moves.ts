/**
 * What the moves of a construction phase plan (handover) and of its proposed changes (accept, reject) read
 * and write beside their status: the caller's duty-holder roles from the scheme's CDM file (who may, a
 * party rule: 403), what the plan's completeness and a change's clean application are decided from
 * (guards: 409 `STATE.001`, their reasons in `meta.allowed_transitions`), and the plan's next version with
 * its history entry. Apart from the writes so the declarations (`definitions.ts`) name them; nothing here
 * uses a declaration while the module loads, as the declarations import it.
 */
import { type Principal, signedIn } from '#shared/auth/principal';
import { batchGetInScope } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { MoveContext, MoveWrites, PartyRule } from '#shared/engine/lifecycle';
import { byPrincipal } from '#shared/engine/record-writes';
import { isPrincipal, readCdmFile } from './cdm-file';
import {
  constructionPhasePlans,
  hazardProposals,
  planRisks,
  preConstructionInformation,
  siteHazards,
} from './definitions';
import { changedRisk, newRisk, type PlanEdit, planEditOps, versionEntry } from './plans';
import { acceptProposalOps } from './pre-construction';
import {
  applyRefusal,
  type ChangeOperation,
  type PlanFacts as Completeness,
  decidingRole,
  handoverGaps,
  type PlanSection,
} from './rules/documents';
import { type DutyRole, dutyRoleTitles, roleRefusal } from './rules/duty-holders';

/** The roles the caller holds on the record's scheme: every CDM move's party rules read them. */
export interface DutyFacts {
  held: ReadonlySet<DutyRole>;
}

const rolesOn = async (scope: Scope, record: StoredResource, principal: Principal | null) =>
  (await readCdmFile(scope, record.org_id, String(record.rels.scheme), signedIn(principal))).held;

/** Only a holder of one of `anyOf` on the scheme may make the move (CDM 2015's duty holders). */
export const dutyHolder =
  (anyOf: readonly DutyRole[], action: string): PartyRule<DutyFacts> =>
  (_record, _principal, { held }) =>
    roleRefusal(held, anyOf, action);

const one = async (scope: Scope, key: { pk: string; sk: string } | null) =>
  key ? ((await batchGetInScope(scope, [key]))[0] ?? null) : null;

// --- The plan's handover ----------------------------------------------------------------------------

export interface HandoverFacts extends DutyFacts {
  /** What completeness is decided from: read for a draft only (a plan handed over is not handed over again). */
  completeness: Completeness | null;
}

/** The plan's risks and its pack's hazards, the risks read beside the pack. */
const completenessOf = async (scope: Scope, plan: StoredResource): Promise<Completeness> => {
  const ids = (record: StoredResource | null, name: string) =>
    (record?.rels[name] as string[] | undefined) ?? [];
  const [risks, pack] = await Promise.all([
    batchGetInScope(
      scope,
      ids(plan, 'risks').map((id) => planRisks.keyOf(plan.org_id, id)),
    ),
    one(scope, preConstructionInformation.keyOf(plan.org_id, String(plan.rels.pre_construction_information))),
  ]);
  const hazards = await batchGetInScope(
    scope,
    ids(pack, 'site_hazards').map((id) => siteHazards.keyOf(plan.org_id, id)),
  );
  return {
    sections: plan.attributes.sections as Record<string, unknown>,
    riskHazards: risks.map((r) => String(r.rels.hazard)),
    activeHazards: hazards.filter((h) => h.attributes.status === 'active').map((h) => h.id),
  };
};

export const readHandoverFacts = async (
  scope: Scope,
  plan: StoredResource,
  principal: Principal | null,
): Promise<HandoverFacts> => {
  const [held, completeness] = await Promise.all([
    rolesOn(scope, plan, principal),
    plan.attributes.status === 'draft' ? completenessOf(scope, plan) : null,
  ]);
  return { held, completeness };
};

/** A plan is handed over complete (`handoverGaps`): each gap is a reason. */
export const completeForHandover = (_plan: StoredResource, { completeness }: HandoverFacts): string[] =>
  completeness ? handoverGaps(completeness).map((gap) => `The plan is not complete: ${gap}.`) : [];

/** The handover's history entry: the plan's version it made, with no content. */
export const handoverWrites = (
  moved: StoredResource,
  _before: StoredResource,
  { principal, now }: MoveContext<HandoverFacts>,
): MoveWrites => ({
  ops: [
    versionEntry(moved, signedIn(principal), now, { sections: [], operation: 'handover', content: null }),
  ],
});

// --- A proposed change's decision -------------------------------------------------------------------

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
