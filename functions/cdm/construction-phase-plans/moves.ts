/**
 * What a plan's handover reads and writes beside its status: the caller's duty-holder roles from the
 * scheme's CDM file (which the party rules in `definition.ts` decide from: 403), what completeness is
 * decided from (its guard: 409 `STATE.001`, each gap a reason in `meta.allowed_transitions`), and the
 * history entry of the version it makes. The declaration loads this module when a move is made or asked
 * about; a proposed change's decision reads the caller's roles and records through it too.
 */
import type { Principal } from '#shared/auth/principal';
import { signedIn } from '#shared/auth/signed-in';
import { batchGetInScope } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { MoveContext, MoveWrites } from '#shared/engine/lifecycle';
import { readCdmFile } from '../cdm-file';
import { planRisks, preConstructionInformation, siteHazards } from '../definitions';
import type { HandoverFacts } from '../move-facts';
import { versionEntry } from '../plan-history';
import type { PlanFacts as Completeness } from '../rules/documents';

export const rolesOn = async (scope: Scope, record: StoredResource, principal: Principal | null) =>
  (await readCdmFile(scope, record.org_id, String(record.rels.scheme), signedIn(principal))).held;

export const one = async (scope: Scope, key: { pk: string; sk: string } | null) =>
  key ? ((await batchGetInScope(scope, [key]))[0] ?? null) : null;

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
