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
import { readInScope } from '#shared/engine/single';
import { freeText, requiredLine, requiredText } from '#shared/jsonapi/attribute-types';
import { ConflictError, ForbiddenError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import {
  type CdmFile,
  type CdmWrite,
  cdmFileWrite,
  documentSchemas,
  requireRole,
  sectionsSchema,
} from './cdm-file';
import { hazardProposals, preConstructionInformation, siteHazards } from './definitions';
import { type PreConstructionSection, preConstructionSections, unownedSections } from './rules/documents';
import { dutyRoleTitles } from './rules/duty-holders';

/** A pack lists its hazards on itself; this bounds the item well inside DynamoDB's 400 KB. */
export const MAX_HAZARDS = 500;

const sectionNames = Object.keys(preConstructionSections) as PreConstructionSection[];
const sections = sectionsSchema(sectionNames);

const hazardAttributes = {
  title: requiredLine(200),
  description: freeText(5000).optional(),
  location: freeText(500).optional(),
  severity: z.enum(['low', 'medium', 'high']),
};

// Types spelt out, not read from their declarations: the CDM machines (plan-moves.ts) import this module.
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
  await commitChecked(scope, [{ replace: next }], []);
  return next;
};

/** The pack with one more hazard listed, refused past the limit. */
const withHazard = (pack: StoredResource, hazardId: string, now: Date) => {
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

const newHazard = (
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

export const createHazard = async (
  { scope, record: pack, file, body, principal }: CdmWrite,
  now = new Date(),
) => {
  const { data } = parseDocument(hazardDocuments.create, body);
  requireRole(file, ['client'], 'write site hazards');
  const hazard = newHazard(pack, data.attributes, principal, now);
  await commitChecked(scope, [{ create: hazard }, { replace: withHazard(pack, hazard.id, now) }], []);
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
  await commitChecked(scope, [{ replace: next }], []);
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

/** A decision body (`decisionDocument` of the record's type): accepted, or rejected with a reason. */
export const parseDecision = (
  schema: z.ZodLazy<ReturnType<typeof decisionDocument>>,
  record: StoredResource,
  body: unknown,
) => {
  const { data } = parseDocument(schema, body);
  assertSameId(data.id, record.id);
  if (data.attributes.status === 'rejected' && !data.attributes.decision_reason) {
    throw new ValidationError({
      detail: 'A rejection gives its decision_reason.',
      source: { pointer: '/data/attributes/decision_reason' },
    });
  }
  if (record.attributes.status !== 'pending') {
    throw new ConflictError(`This was already ${String(record.attributes.status)}; a decision is final.`, {
      pointer: '/data/attributes/status',
    });
  }
  return data.attributes;
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
 * The writes that accept a pending hazard proposal: the hazard, the pack listing it and the decided
 * proposal. Used alone, and inside the acceptance of a plan change naming it (one transaction, with
 * the events of every record it changes).
 */
export const acceptProposalOps = (
  pack: StoredResource,
  proposal: StoredResource,
  principal: Principal,
  now: Date,
): { ops: WriteOp[]; hazard: StoredResource; proposal: StoredResource } => {
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
  const accepted = decided(hazardProposals, proposal, { status: 'accepted' }, principal, now, {
    site_hazard: hazard.id,
  });
  return {
    hazard,
    proposal: accepted,
    ops: [
      { create: hazard },
      { replace: withHazard(pack, hazard.id, now) },
      { replace: accepted, as: 'accepted' },
    ],
  };
};

export const decideHazardProposal = async (
  { scope, record: proposal, file, body, principal }: CdmWrite,
  now = new Date(),
) => {
  const pack = await readInScope(
    scope,
    preConstructionInformation,
    String(proposal.rels.pre_construction_information),
  );
  requireRole(file, ['client'], 'decide hazard proposals');
  const decision = parseDecision(hazardDecisionDocument, proposal, body);
  if (decision.status === 'accepted') {
    const accepted = acceptProposalOps(pack, proposal, principal, now);
    await commitChecked(scope, accepted.ops, []);
    return accepted.proposal;
  }
  const rejected = decided(hazardProposals, proposal, decision, principal, now);
  await commitChecked(scope, [{ replace: rejected, as: 'rejected' }], []);
  return rejected;
};
