/**
 * What a hazard proposal's decision reads and writes beside its status: the caller's duty-holder roles
 * (which the party rule in `definition.ts` decides from: 403) and, accepted, the hazard it makes, listed
 * on the pack, in the decision's transaction. The declaration loads this module when a move is made or
 * asked about.
 */
import type { Principal } from '#shared/auth/principal';
import { signedIn } from '#shared/auth/signed-in';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { MoveContext, MoveWrites } from '#shared/engine/lifecycle';
import { readInScope } from '#shared/engine/single';
import { rolesOn } from '../construction-phase-plans/moves';
import { preConstructionInformation } from '../definitions';
import type { DutyFacts } from '../move-facts';
import { proposedHazard } from '../site-hazards/writes';

export const readProposalFacts = async (
  scope: Scope,
  proposal: StoredResource,
  principal: Principal | null,
): Promise<DutyFacts> => ({ held: await rolesOn(scope, proposal, principal) });

/** Accepting creates the hazard, lists it on the pack (refused past its limit) and names it on the proposal. */
export const acceptanceWrites = async (
  moved: StoredResource,
  { principal, now }: MoveContext,
  scope: Scope,
): Promise<MoveWrites> => {
  const pack = await readInScope(
    scope,
    preConstructionInformation,
    String(moved.rels.pre_construction_information),
  );
  const { hazard, ops } = proposedHazard(pack, moved, signedIn(principal), now);
  return { record: { ...moved, rels: { ...moved.rels, site_hazard: hazard.id } }, ops };
};
