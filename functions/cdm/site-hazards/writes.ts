/**
 * A site hazard's creation beside its pack, which lists it: written by the Client, and by the acceptance of
 * a hazard proposal (the proposal's own move, or a plan change naming it). Reads no declaration of a
 * machine, so a move's writes can load it without importing their declaration back.
 */
import type { Principal } from '#shared/auth/principal';
import type { StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { byPrincipal, changedRecord, newRecord } from '#shared/engine/record-writes';
import { ConflictError } from '#shared/jsonapi/errors';
import { preConstructionInformation, siteHazards } from '../definitions';

/** A pack lists its hazards on itself; this bounds the item well inside DynamoDB's 400 KB. */
export const MAX_HAZARDS = 500;

/** The pack with one more hazard listed, refused past the limit. */
export const withHazard = (pack: StoredResource, hazardId: string, now: Date) => {
  const listed = (pack.rels.site_hazards as string[] | undefined) ?? [];
  if (listed.length >= MAX_HAZARDS) {
    throw new ConflictError(`A pack holds at most ${MAX_HAZARDS} site hazards; retire and consolidate some.`);
  }
  return changedRecord(
    preConstructionInformation,
    pack,
    { rels: { site_hazards: [...listed, hazardId] } },
    now,
  );
};

export const newHazard = (
  pack: StoredResource,
  attributes: Record<string, unknown>,
  principal: Principal,
  now: Date,
  proposal?: StoredResource,
) =>
  newRecord(
    siteHazards,
    pack.org_id,
    {
      attributes: { ...attributes, status: 'active', retired_at: null },
      rels: {
        scheme: pack.rels.scheme ?? null,
        pre_construction_information: pack.id,
        hazard_proposal: proposal?.id ?? null,
        ...byPrincipal('created_by', principal),
      },
    },
    now,
  );

/** The hazard an accepted proposal makes, and the ops creating it and listing it on the pack. */
export const proposedHazard = (
  pack: StoredResource,
  proposal: StoredResource,
  principal: Principal,
  now: Date,
): { hazard: StoredResource; ops: WriteOp[] } => {
  const { title, description, location, severity } = proposal.attributes;
  const hazard = newHazard(
    pack,
    Object.fromEntries(
      Object.entries({ title, description, location, severity }).filter(([, v]) => v !== undefined),
    ),
    principal,
    now,
    proposal,
  );
  return { hazard, ops: [{ create: hazard }, { replace: withHazard(pack, hazard.id, now), was: pack }] };
};
