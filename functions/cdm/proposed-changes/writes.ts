/**
 * Proposed changes to a handed-over construction phase plan (spec: POST …/proposed-changes), and their
 * acceptance or rejection by the other party. Accepting applies the change as a plan edit in one
 * transaction with the plan's version check, the decided change and their events; a new risk that
 * names a pending hazard proposal accepts that proposal in the same transaction.
 */

import * as z from 'zod';
import { batchGetInScope } from '#shared/data/repository';
import { fileChild } from '#shared/engine/children';
import { byPrincipal, commitChecked, newRecord } from '#shared/engine/record-writes';
import { freeText, line } from '#shared/jsonapi/attribute-types';
import { ConflictError, ValidationError } from '#shared/jsonapi/errors';
import { identifier, parseDocument } from '#shared/jsonapi/request-document';
import { type CdmWrite, requireRole, sectionContent } from '../cdm-file';
import { planRisks } from '../definitions';
import { hazardProposals } from '../hazard-proposals/definition';
import { requirePlanHazard, riskSchema } from '../plans';
import { decisionDocument } from '../pre-construction';
import {
  type ChangeOperation,
  type PlanSection,
  planSections,
  proposedChangeProblems,
} from '../rules/documents';
import { proposedChanges } from './definition';

const sections = Object.keys(planSections) as [PlanSection, ...PlanSection[]];
const relationship = (type: string) => z.strictObject({ data: identifier(type) }).optional();

/** The proposal document with `proposed` as given: the first step takes any object of named members. */
const proposalDocumentWith = <P extends z.ZodType>(proposed: P) =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal(proposedChanges.type),
      attributes: z.strictObject({
        reason: freeText(5000).min(1),
        section: z.enum(sections),
        operation: z.enum(['replace', 'create', 'update', 'delete']),
        proposed,
      }),
      relationships: z
        .strictObject({
          risk: relationship(planRisks.type),
          hazard: relationship('site-hazards'),
          hazard_proposal: relationship(hazardProposals.type),
        })
        .optional(),
    }),
  });

const proposalDocument = z.lazy(() => proposalDocumentWith(z.record(line(200), z.unknown()).optional()));

/** Members that would set who proposed or when: the request decides those, so naming them is refused. */
const requestOwned = ['proposed_by', 'proposer', 'proposed_at', 'created_at', 'status', 'created_by'];

const refuseRequestOwned = (body: unknown) => {
  const data = (body as { data?: Record<string, unknown> } | null)?.data;
  if (!data || typeof data !== 'object') return;
  const places = { attributes: data.attributes, relationships: data.relationships, meta: data.meta };
  const problems = Object.entries(places).flatMap(([place, members]) =>
    members && typeof members === 'object'
      ? Object.keys(members)
          .filter((name) => requestOwned.includes(name) || place === 'meta')
          .map(
            (name) =>
              new ValidationError({
                detail: `The proposer and the time of proposal are taken from the request; ${name} cannot be sent.`,
                source: { pointer: `/data/${place}/${name}` },
              }),
          )
      : [],
  );
  if (problems.length > 0) throw new ValidationError({ problems });
};

/** `proposed`'s content, by what the change touches: a section's content, or a (partial, for update) risk. */
const proposedContent = (section: PlanSection, operation: ChangeOperation) =>
  section !== 'risks'
    ? z.strictObject({ [section]: sectionContent })
    : operation === 'delete'
      ? z.strictObject({}).optional()
      : z.strictObject({ risk: operation === 'create' ? riskSchema : riskSchema.partial() });

/** The second step of parsing a proposal: `proposed` against its section and operation. */
const proposedSchema = (section: PlanSection, operation: ChangeOperation) =>
  z.object({ data: z.object({ attributes: z.object({ proposed: proposedContent(section, operation) }) }) });

/**
 * What a proposal may hold, for the OpenAPI document: the first step's document with `proposed` narrowed
 * to any content the second step accepts for some section and operation (which content goes with which
 * section and operation is the second step's rule; a JSON Schema of every pairing would repeat it).
 */
export const proposeChangeDocument = z.lazy(() =>
  proposalDocumentWith(
    z
      .union([
        ...sections.filter((s) => s !== 'risks').map((s) => proposedContent(s, 'replace')),
        ...(['create', 'update', 'delete'] as const).map((operation) => proposedContent('risks', operation)),
      ])
      .optional(),
  ),
);

const problemsError = (problems: { pointer: string; detail: string }[]) =>
  new ValidationError({
    problems: problems.map((p) => new ValidationError({ detail: p.detail, source: { pointer: p.pointer } })),
  });

export const proposeChange = async (
  { scope, record: plan, file, body, principal }: CdmWrite,
  now = new Date(),
) => {
  refuseRequestOwned(body);
  const { data } = parseDocument(proposalDocument, body);
  const { section, operation, proposed } = data.attributes;
  const rels = data.relationships ?? {};
  const shape = proposedChangeProblems({
    section,
    operation,
    proposedKeys: proposed ? Object.keys(proposed) : null,
    relationships: { risk: !!rels.risk, hazard: !!rels.hazard, hazard_proposal: !!rels.hazard_proposal },
  });
  if (shape.length > 0) throw problemsError(shape);
  parseDocument(proposedSchema(section, operation), body);
  requireRole(file, ['client', 'principal_contractor'], 'propose changes to the construction phase plan');
  if (plan.attributes.status !== 'handed_over') {
    throw new ConflictError(
      'Changes are proposed only after the plan has been handed over; write the section directly.',
    );
  }
  const pointer = (name: string) => `/data/relationships/${name}/data`;
  if (rels.risk && !((plan.rels.risks as string[]) ?? []).includes(rels.risk.data.id)) {
    throw new ValidationError({
      detail: 'risk must name a risk of this plan.',
      source: { pointer: pointer('risk') },
    });
  }
  if (rels.hazard) await requirePlanHazard(scope, plan, rels.hazard.data.id, pointer('hazard'));
  if (rels.hazard_proposal) {
    const [found] = await batchGetInScope(scope, [
      hazardProposals.keyOf(plan.org_id, rels.hazard_proposal.data.id),
    ]);
    if (
      !found ||
      found.rels.pre_construction_information !== plan.rels.pre_construction_information ||
      found.attributes.status !== 'pending'
    ) {
      throw new ValidationError({
        detail:
          'hazard_proposal must name a pending hazard proposal on this scheme’s pre-construction information.',
        source: { pointer: pointer('hazard_proposal') },
      });
    }
  }
  const proposerRole = file.held.has('principal_contractor') ? 'principal_contractor' : 'client';
  const record = newRecord(
    proposedChanges,
    plan.org_id,
    {
      attributes: {
        reason: data.attributes.reason,
        section,
        operation,
        proposed: proposed ?? null,
        status: 'pending',
        proposer_role: proposerRole,
        decision_reason: null,
        decided_at: null,
      },
      meta: { proposed_at: now.toISOString(), based_on_version: plan.version },
      rels: {
        scheme: plan.rels.scheme ?? null,
        construction_phase_plan: plan.id,
        risk: rels.risk?.data.id ?? null,
        hazard: rels.hazard?.data.id ?? null,
        hazard_proposal: rels.hazard_proposal?.data.id ?? null,
        ...byPrincipal('proposed_by', principal),
        decided_by_user: null,
        decided_by_service_account: null,
      },
    },
    now,
  );
  const filed = fileChild(plan, record);
  await commitChecked(scope, [{ create: filed }], []);
  return filed;
};

export const changeDecisionDocument = z.lazy(() => decisionDocument(proposedChanges.type));
