/**
 * A scheme's CDM file: the one item every CDM write reads first (strongly consistent), holding the
 * scheme's active appointments and the ids of its pack and plan. Writes that change it commit its next
 * version with the change, so two Clients, two packs or two plans can never both land.
 */
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { signedIn } from '#shared/auth/signed-in';
import { getConsistent } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import type { ResourceDefinition } from '#shared/engine/resource-definition';
import { readInScope } from '#shared/engine/single';
import { toStoredResource } from '#shared/engine/stored';
import { requiredText } from '#shared/jsonapi/attribute-types';
import { ForbiddenError } from '#shared/jsonapi/errors';
import { cdmFiles } from './definitions';
import { type ActiveAppointment, type DutyRole, roleRefusal, rolesHeld } from './rules/duty-holders';

export interface CdmFile {
  record: StoredResource;
  appointments: Record<string, ActiveAppointment>;
  pack: string | null;
  plan: string | null;
  /** The roles the caller holds on the scheme. */
  held: ReadonlySet<DutyRole>;
}

export const readCdmFile = async (
  scope: Scope,
  orgId: string,
  schemeId: string,
  principal: Principal,
): Promise<CdmFile> => {
  const record =
    (await getConsistent(scope, { ...cdmFiles.keyOf(orgId, schemeId), orgId })) ??
    ({
      ...toStoredResource(cdmFiles, {
        orgId,
        id: schemeId,
        attributes: { appointments: {}, pre_construction_information: null, construction_phase_plan: null },
        meta: {},
      }),
      version: 0,
    } satisfies StoredResource);
  const appointments = record.attributes.appointments as Record<string, ActiveAppointment>;
  const caller = {
    id: principal.id,
    teams: Object.values(principal.teams).flat(),
    organisations: [...principal.permissions.keys()],
  };
  return {
    record,
    appointments,
    pack: (record.attributes.pre_construction_information as string | null) ?? null,
    plan: (record.attributes.construction_phase_plan as string | null) ?? null,
    held: rolesHeld(caller, Object.values(appointments)),
  };
};

/** What every CDM write gets: the record the path names, its scheme's CDM file, the body and the caller. */
export interface CdmWrite {
  scope: Scope;
  record: StoredResource;
  file: CdmFile;
  body: unknown;
  principal: Principal;
}

/** The op storing the file's next state: a create the first time, a version-checked replace after. */
export const cdmFileWrite = (file: CdmFile, attributes: Record<string, unknown>): WriteOp => {
  const next = {
    ...file.record,
    attributes: { ...file.record.attributes, ...attributes },
    version: file.record.version + 1,
  };
  return file.record.version === 0 ? { create: next } : { replace: next, was: file.record };
};

/** 403 AUTH.002 naming the role required, unless the caller holds one of `anyOf` on the scheme. */
export const requireRole = (file: CdmFile, anyOf: readonly DutyRole[], action: string): void => {
  const refusal = roleRefusal(file.held, anyOf, action);
  if (refusal) throw new ForbiddenError(refusal);
};

/** A section's content: prose, and optionally a list of points (rules, names, arrangements). */
export const sectionContent = z.lazy(() =>
  z.strictObject({
    text: requiredText(20_000),
    items: z.array(requiredText(2000)).max(200).optional(),
  }),
);

/** `{section: content | null}` for the named sections, each optional. */
export const sectionsSchema = (names: readonly string[]) =>
  z.strictObject(Object.fromEntries(names.map((n) => [n, sectionContent.nullable().optional()])));

/** Create and update documents of a type: `{data: {type, [id], ...members}}`, strict at every level. */
export const documentSchemas = <S extends z.ZodRawShape>(type: string, members: S) => ({
  create: z.strictObject({ data: z.strictObject({ type: z.literal(type), ...members }) }),
  update: z.strictObject({ data: z.strictObject({ type: z.literal(type), id: z.uuid(), ...members }) }),
});

/** A record read in the scope, and the CDM file of the scheme it belongs to. */
export const withCdmFile = async (
  scope: Scope,
  definition: ResourceDefinition,
  id: string,
  principal: Principal | null,
): Promise<{ record: StoredResource; file: CdmFile }> => {
  const record = await readInScope(scope, definition, id);
  const schemeId = definition.type === 'schemes' ? record.id : String(record.rels.scheme);
  return { record, file: await readCdmFile(scope, record.org_id, schemeId, signedIn(principal)) };
};
