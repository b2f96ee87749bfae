/**
 * Pre-construction information: one pack per scheme, owned by the Client, with sections each written
 * only by its owning duty-holder role, the Client's site hazards, and proposals of new hazards that any
 * appointed duty holder may make and the Client accepts (the hazard is created) or rejects.
 */

import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import type { StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { fileChild } from '#shared/engine/children';
import { byPrincipal, changedRecord, commitChecked, newRecord } from '#shared/engine/record-writes';
import type { ResourceDefinition } from '#shared/engine/resource-definition';
import { freeText, requiredLine, requiredText } from '#shared/jsonapi/attribute-types';
import { ConflictError, ForbiddenError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import {
  type CdmFile,
  type CdmWrite,
  cdmFileWrite,
  documentSchemas,
  requireRole,
  sectionsSchema,
} from './cdm-file';
import { preConstructionInformation, siteHazards } from './definitions';
import { hazardProposals } from './hazard-proposals/definition';
import { type PreConstructionSection, preConstructionSections, unownedSections } from './rules/documents';
import { dutyRoleTitles } from './rules/duty-holders';
import { newHazard, proposedHazard, withHazard } from './site-hazards/writes';

const sectionNames = Object.keys(preConstructionSections) as PreConstructionSection[];
const sections = sectionsSchema(sectionNames);

const hazardAttributes = {
  title: requiredLine(200),
  description: freeText(5000).optional(),
  location: freeText(500).optional(),
  severity: z.enum(['low', 'medium', 'high']),
};

// Types spelt out, not read from their declarations: the CDM machines' moves (`*/moves.ts`) import this module.
export const hazardDocuments = {
  create: documentSchemas('site-hazards', { attributes: z.strictObject(hazardAttributes) }).create,
  update: documentSchemas('site-hazards', {
    attributes: z
      .strictObject({
        ...hazardAttributes,
        status: z.literal('retired'),
        retired_reason: freeText(2000),
      })
      .partial(),
  }).update,
};
export const proposalDocuments = documentSchemas('hazard-proposals', {
  attributes: z.strictObject({ ...hazardAttributes, reason: requiredText(5000) }),
});

export const packDocuments = documentSchemas('pre-construction-information', {
  attributes: z.strictObject({ sections: sections.optional() }).optional(),
});

/** 403 naming the owning role of the first section the caller may not write. */
export const requireSectionOwners = <S extends string>(
  file: CdmFile,
  owners: Record<S, keyof typeof dutyRoleTitles>,
  written: readonly S[],
) => {
  const [refused] = unownedSections(owners, written, file.held);
  if (refused) {
    throw new ForbiddenError(
      `Section ${refused.section} is written only by the ${dutyRoleTitles[refused.owner]} on this scheme.`,
    );
  }
};

export const createPack = async (
  { scope, record: scheme, file, body, principal }: CdmWrite,
  now = new Date(),
) => {
  const { data } = parseDocument(packDocuments.create, body);
  requireRole(file, ['client'], 'create the pre-construction information');
  const written = data.attributes?.sections ?? {};
  requireSectionOwners(file, preConstructionSections, Object.keys(written) as PreConstructionSection[]);
  if (file.pack) {
    throw new ConflictError(`This scheme already has pre-construction information (${file.pack}).`);
  }
  const pack = newRecord(
    preConstructionInformation,
    scheme.org_id,
    {
      attributes: { sections: { ...Object.fromEntries(sectionNames.map((n) => [n, null])), ...written } },
      rels: { scheme: scheme.id, site_hazards: [], ...byPrincipal('created_by', principal) },
    },
    now,
  );
  await commitChecked(
    scope,
    [{ create: pack }, cdmFileWrite(file, { pre_construction_information: pack.id })],
    [],
  );
  return pack;
};

export const updatePack = async ({ scope, record: pack, file, body }: CdmWrite, now = new Date()) => {
  const { data } = parseDocument(packDocuments.update, body);
  assertSameId(data.id, pack.id);
  const written = data.attributes?.sections ?? {};
  requireSectionOwners(file, preConstructionSections, Object.keys(written) as PreConstructionSection[]);
  const next = changedRecord(
    preConstructionInformation,
    pack,
    { attributes: { sections: { ...(pack.attributes.sections as object), ...written } } },
    now,
  );
  await commitChecked(scope, [{ replace: next, was: pack }], []);
  return next;
};

export const createHazard = async (
  { scope, record: pack, file, body, principal }: CdmWrite,
  now = new Date(),
) => {
  const { data } = parseDocument(hazardDocuments.create, body);
  requireRole(file, ['client'], 'write site hazards');
  const hazard = newHazard(pack, data.attributes, principal, now);
  await commitChecked(
    scope,
    [{ create: hazard }, { replace: withHazard(pack, hazard.id, now), was: pack }],
    [],
  );
  return hazard;
};

/** Changes a hazard's description, or retires it (final: a retired hazard no longer needs controlling). */
export const updateHazard = async ({ scope, record: hazard, file, body }: CdmWrite, now = new Date()) => {
  const { data } = parseDocument(hazardDocuments.update, body);
  assertSameId(data.id, hazard.id);
  requireRole(file, ['client'], 'write site hazards');
  if (hazard.attributes.status === 'retired') throw new ConflictError('A retired site hazard cannot change.');
  const retiring = data.attributes.status === 'retired';
  const next = changedRecord(
    siteHazards,
    hazard,
    { attributes: { ...data.attributes, ...(retiring && { retired_at: now.toISOString() }) } },
    now,
  );
  await commitChecked(scope, [{ replace: next, was: hazard }], []);
  return next;
};

export const createHazardProposal = async (
  { scope, record: pack, file, body, principal }: CdmWrite,
  now = new Date(),
) => {
  const { data } = parseDocument(proposalDocuments.create, body);
  if (file.held.size === 0) {
    throw new ForbiddenError('Only a duty holder appointed on this scheme may propose a site hazard.');
  }
  const record = newRecord(
    hazardProposals,
    pack.org_id,
    {
      attributes: { ...data.attributes, status: 'pending', decision_reason: null, decided_at: null },
      rels: {
        scheme: pack.rels.scheme ?? null,
        pre_construction_information: pack.id,
        site_hazard: null,
        ...byPrincipal('created_by', principal),
      },
    },
    now,
  );
  const filed = fileChild(pack, record);
  await commitChecked(scope, [{ create: filed }], []);
  return filed;
};

/** The body of a decision on a pending record of `type`; each type's is built once (and documented). */
export const decisionDocument = (type: string) =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal(type),
      id: z.uuid(),
      attributes: z.strictObject({
        status: z.enum(['accepted', 'rejected']),
        decision_reason: requiredText(5000).optional(),
      }),
    }),
  });

export const hazardDecisionDocument = z.lazy(() => decisionDocument(hazardProposals.type));

/**
 * The move a PATCH of a decision's `status` stands for (`accepted`: accept, `rejected`: reject), and the
 * body that move takes: its decision_reason, which a rejection must give (400 at the reason).
 */
export const decisionMove = (
  document: z.ZodLazy<ReturnType<typeof decisionDocument>>,
  record: StoredResource,
  body: unknown,
) => {
  const { data } = parseDocument(document, body);
  assertSameId(data.id, record.id);
  const { status, decision_reason } = data.attributes;
  return {
    verb: status === 'accepted' ? 'accept' : 'reject',
    body: { data: { type: data.type, attributes: decision_reason === undefined ? {} : { decision_reason } } },
  };
};

/** The decided record: status, reason, when and by whom. */
export const decided = (
  definition: ResourceDefinition,
  record: StoredResource,
  decision: { status: string; decision_reason?: string | undefined },
  principal: Principal,
  now: Date,
  rels: Record<string, string> = {},
) =>
  changedRecord(
    definition,
    record,
    {
      attributes: {
        status: decision.status,
        decision_reason: decision.decision_reason ?? null,
        decided_at: now.toISOString(),
      },
      rels: { ...byPrincipal('decided_by', principal), ...rels },
    },
    now,
  );

/**
 * The writes that accept a pending hazard proposal inside the acceptance of a plan change naming it: the
 * hazard, the pack listing it and the decided proposal, in the change's transaction (with the events of
 * every record it changes). The proposal's own decision is its declared move (`hazard-proposals/`).
 */
export const acceptProposalOps = (
  pack: StoredResource,
  proposal: StoredResource,
  principal: Principal,
  now: Date,
): { ops: WriteOp[]; hazard: StoredResource; proposal: StoredResource } => {
  const { hazard, ops } = proposedHazard(pack, proposal, principal, now);
  const accepted = decided(hazardProposals, proposal, { status: 'accepted' }, principal, now, {
    site_hazard: hazard.id,
  });
  return { hazard, proposal: accepted, ops: [...ops, { replace: accepted, was: proposal, as: 'accepted' }] };
};
