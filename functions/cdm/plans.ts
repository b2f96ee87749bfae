/**
 * The construction phase plan: one per scheme, drawn up by the Principal Contractor against the scheme's
 * pre-construction information. Before handover each section is written directly by its owning role;
 * handover (when the plan is complete; a declared move, construction-phase-plans/moves.ts) freezes direct writes, and from
 * then on every change is a proposed change that the other party accepts. Every change makes a new plan version with an entry in
 * the plan's history, in the same transaction, and the plan's version check makes concurrent edits 409.
 */

import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { batchGetInScope } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { byPrincipal, changedRecord, commitChecked, newRecord } from '#shared/engine/record-writes';
import { readInScope } from '#shared/engine/single';
import { freeText, line, requiredLine, requiredText } from '#shared/jsonapi/attribute-types';
import { ConflictError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, identifier, parseDocument } from '#shared/jsonapi/request-document';
import {
  type CdmFile,
  type CdmWrite,
  cdmFileWrite,
  documentSchemas,
  requireRole,
  sectionsSchema,
} from './cdm-file';
import { constructionPhasePlans } from './construction-phase-plans/definition';
import { planRisks, siteHazards } from './definitions';
import { versionEntry } from './plan-history';
import { requireSectionOwners } from './pre-construction';
import { type PlanSection, planContentSections, planSections } from './rules/documents';

/** A plan lists its risks on itself; this bounds the item well inside DynamoDB's 400 KB. */
export const MAX_RISKS = 500;

export const contentSections = sectionsSchema(planContentSections);

const riskAttributes = {
  title: requiredLine(200),
  description: freeText(5000).optional(),
  control_measures: z.array(requiredText(2000)).min(1).max(50),
  residual_risk: z.enum(['low', 'medium', 'high']),
  responsible: line(200).optional(),
};
export const riskSchema = z.strictObject(riskAttributes);

const hazardRelationship = z.lazy(() => z.strictObject({ data: identifier(siteHazards.type) }));

export type RiskEdit =
  | { operation: 'create'; record: StoredResource }
  | { operation: 'update'; record: StoredResource; was: StoredResource }
  | { operation: 'delete'; record: StoredResource };

export interface PlanEdit {
  sections?: Record<string, unknown>;
  risk?: RiskEdit;
  /** The accepted proposed change this edit applies, if any. */
  proposedChange?: string;
}

/**
 * The writes of one edit: the plan's next version (sections, risk list, per-section versions), the
 * risk's own write, and the history entry. The plan's Put is version-checked.
 */
export const planEditOps = (plan: StoredResource, edit: PlanEdit, principal: Principal, now: Date) => {
  const version = plan.version + 1;
  const touched = [...Object.keys(edit.sections ?? {}), ...(edit.risk ? ['risks'] : [])];
  const risks = (plan.rels.risks as string[] | undefined) ?? [];
  const { risk } = edit;
  if (risk?.operation === 'create' && risks.length >= MAX_RISKS) {
    throw new ConflictError(`A plan holds at most ${MAX_RISKS} risks.`);
  }
  const next = changedRecord(
    constructionPhasePlans,
    plan,
    {
      attributes: { sections: { ...(plan.attributes.sections as object), ...edit.sections } },
      rels: risk
        ? {
            risks:
              risk.operation === 'create'
                ? [...risks, risk.record.id]
                : risk.operation === 'delete'
                  ? risks.filter((id) => id !== risk.record.id)
                  : risks,
          }
        : {},
      meta: {
        version,
        section_versions: {
          ...(plan.meta.section_versions as object),
          ...Object.fromEntries(touched.map((s) => [s, version])),
        },
      },
    },
    now,
  );
  const entry = versionEntry(next, principal, now, {
    sections: touched,
    operation: risk ? risk.operation : 'replace',
    content: risk
      ? { risk: risk.operation === 'delete' ? null : risk.record.attributes, risk_id: risk.record.id }
      : (edit.sections ?? {}),
    proposedChange: edit.proposedChange,
  });
  const riskOp: WriteOp[] = !risk
    ? []
    : risk.operation === 'create'
      ? [{ create: risk.record }]
      : risk.operation === 'update'
        ? [{ replace: risk.record, was: risk.was }]
        : [{ delete: risk.record }];
  return { plan: next, ops: [{ replace: next, was: plan }, ...riskOp, entry] };
};

/** The plan a risk or proposed change belongs to. */
export const planOf = (scope: Scope, child: StoredResource) =>
  readInScope(scope, constructionPhasePlans, String(child.rels.construction_phase_plan));

const requireDraft = (plan: StoredResource) => {
  if (plan.attributes.status !== 'draft') {
    throw new ConflictError(
      'The plan has been handed over: its sections change only through proposed changes (POST …/proposed-changes).',
    );
  }
};

/** The site hazard a risk controls: an active hazard of the plan's own pre-construction information. */
export const requirePlanHazard = async (
  scope: Scope,
  plan: StoredResource,
  hazardId: string,
  pointer: string,
) => {
  const [hazard] = await batchGetInScope(scope, [siteHazards.keyOf(plan.org_id, hazardId)]);
  if (
    !hazard ||
    hazard.rels.pre_construction_information !== plan.rels.pre_construction_information ||
    hazard.attributes.status !== 'active'
  ) {
    throw new ValidationError({
      detail: 'hazard must name an active site hazard of this scheme’s pre-construction information.',
      source: { pointer },
    });
  }
  return hazard;
};

/** A risk as it will be in the plan's next version (`meta.plan_version`, for the apply-cleanly rule). */
export const newRisk = (plan: StoredResource, attributes: object, hazardId: string, now: Date) =>
  newRecord(
    planRisks,
    plan.org_id,
    {
      attributes: { ...attributes },
      meta: { plan_version: plan.version + 1 },
      rels: { scheme: plan.rels.scheme ?? null, construction_phase_plan: plan.id, hazard: hazardId },
    },
    now,
  );

export const changedRisk = (
  plan: StoredResource,
  risk: StoredResource,
  attributes: object,
  hazardId: string | undefined,
  now: Date,
) =>
  changedRecord(
    planRisks,
    risk,
    {
      attributes: { ...attributes },
      rels: hazardId ? { hazard: hazardId } : {},
      meta: { plan_version: plan.version + 1 },
    },
    now,
  );

const commitEdit = async (
  scope: Scope,
  plan: StoredResource,
  edit: PlanEdit,
  principal: Principal,
  now: Date,
) => {
  const result = planEditOps(plan, edit, principal, now);
  await commitChecked(scope, result.ops, []);
  return result;
};

// The type is spelt out, not read from its declaration: the declaration's moves (construction-phase-plans/moves.ts) import
// this module, so nothing here may use the declarations while the module loads.
export const planDocuments = documentSchemas('construction-phase-plans', {
  attributes: z.strictObject({ sections: contentSections.optional() }).optional(),
});

export const createPlan = async (
  { scope, record: scheme, file, body, principal }: CdmWrite,
  now = new Date(),
) => {
  const { data } = parseDocument(planDocuments.create, body);
  requireRole(file, ['principal_contractor'], 'draw up the construction phase plan');
  const written = data.attributes?.sections ?? {};
  requireSectionOwners(file, planSections, Object.keys(written) as PlanSection[]);
  if (!file.pack) {
    throw new ConflictError(
      'The scheme has no pre-construction information yet: the plan is written against it.',
    );
  }
  if (file.plan) throw new ConflictError(`This scheme already has a construction phase plan (${file.plan}).`);
  const plan = newRecord(
    constructionPhasePlans,
    scheme.org_id,
    {
      attributes: {
        status: 'draft',
        sections: { ...Object.fromEntries(planContentSections.map((s) => [s, null])), ...written },
      },
      meta: {
        version: 1,
        section_versions: Object.fromEntries(Object.keys(written).map((s) => [s, 1])),
        handed_over_at: null,
      },
      rels: {
        scheme: scheme.id,
        pre_construction_information: file.pack,
        risks: [],
        ...byPrincipal('created_by', principal),
      },
    },
    now,
  );
  await commitChecked(
    scope,
    [
      { create: plan },
      cdmFileWrite(file, { construction_phase_plan: plan.id }),
      versionEntry(plan, principal, now, {
        sections: Object.keys(written),
        operation: 'create',
        content: written,
      }),
    ],
    [],
  );
  return plan;
};

export const updatePlan = async (
  { scope, record: plan, file, body, principal }: CdmWrite,
  now = new Date(),
) => {
  const { data } = parseDocument(planDocuments.update, body);
  assertSameId(data.id, plan.id);
  const written = data.attributes?.sections ?? {};
  requireSectionOwners(file, planSections, Object.keys(written) as PlanSection[]);
  requireDraft(plan);
  return (await commitEdit(scope, plan, { sections: written }, principal, now)).plan;
};

export const riskDocuments = {
  create: documentSchemas('construction-phase-plan-risks', {
    attributes: riskSchema,
    relationships: z.strictObject({ hazard: hazardRelationship }),
  }).create,
  update: documentSchemas('construction-phase-plan-risks', {
    attributes: riskSchema.partial().optional(),
    relationships: z.strictObject({ hazard: hazardRelationship.optional() }).optional(),
  }).update,
};

const requireRiskWriter = (file: CdmFile, plan: StoredResource) => {
  requireSectionOwners(file, planSections, ['risks']);
  requireDraft(plan);
};

export const createRisk = async (
  { scope, record: plan, file, body, principal }: CdmWrite,
  now = new Date(),
) => {
  const { data } = parseDocument(riskDocuments.create, body);
  requireRiskWriter(file, plan);
  const hazardId = data.relationships.hazard.data.id;
  await requirePlanHazard(scope, plan, hazardId, '/data/relationships/hazard/data');
  const record = newRisk(plan, data.attributes, hazardId, now);
  await commitEdit(scope, plan, { risk: { operation: 'create', record } }, principal, now);
  return record;
};

export const updateRisk = async (
  { scope, record: risk, file, body, principal }: CdmWrite,
  now = new Date(),
) => {
  const plan = await planOf(scope, risk);
  const { data } = parseDocument(riskDocuments.update, body);
  assertSameId(data.id, risk.id);
  requireRiskWriter(file, plan);
  const hazardId = data.relationships?.hazard?.data.id;
  if (hazardId) await requirePlanHazard(scope, plan, hazardId, '/data/relationships/hazard/data');
  const record = changedRisk(plan, risk, data.attributes ?? {}, hazardId, now);
  await commitEdit(scope, plan, { risk: { operation: 'update', record, was: risk } }, principal, now);
  return record;
};

export const deleteRisk = async ({ scope, record: risk, file, principal }: CdmWrite, now = new Date()) => {
  const plan = await planOf(scope, risk);
  requireRiskWriter(file, plan);
  await commitEdit(scope, plan, { risk: { operation: 'delete', record: risk } }, principal, now);
};
