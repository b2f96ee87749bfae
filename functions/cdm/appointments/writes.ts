/**
 * Duty-holder appointments on a scheme. While the scheme has no Client, the only appointment that can be
 * made is the Client's (by anyone holding `appointments:manage`); from then on the Client appoints and
 * ends appointments (CDM 2015 regulation 5). Ending keeps the record: the scheme's history of who held
 * which role, and when, is its appointments list.
 */

import * as z from 'zod';
import { organisations } from '#functions/organisations/definitions';
import type { WriteRefused } from '#shared/data/transaction';
import { fileChild } from '#shared/engine/children';
import {
  byPrincipal,
  changedRecord,
  commitChecked,
  createRecord,
  newRecord,
} from '#shared/engine/record-writes';
import { freeText, timestamp } from '#shared/jsonapi/attribute-types';
import { ConflictError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, identifier, parseDocument } from '#shared/jsonapi/request-document';
import { type CdmFile, type CdmWrite, cdmFileWrite, requireRole } from '../cdm-file';
import { appointments } from '../definitions';
import { type Appointee, dutyRoles, dutyRoleTitles, singleHolderRoles } from '../rules/duty-holders';

const appointeeRelationships = {
  user: 'users',
  team: 'teams',
  service_account: 'service-accounts',
  appointed_organisation: 'organisations',
} as const;

export const createAppointmentDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('appointments'),
      attributes: z.strictObject({
        role: z.enum(dutyRoles),
        starts_at: timestamp.optional(),
        notes: freeText(2000).optional(),
      }),
      relationships: z.strictObject({
        user: z.strictObject({ data: identifier('users') }).optional(),
        team: z.strictObject({ data: identifier('teams') }).optional(),
        service_account: z.strictObject({ data: identifier('service-accounts') }).optional(),
        appointed_organisation: z.strictObject({ data: identifier('organisations') }).optional(),
      }),
    }),
  }),
);

export const endAppointmentDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('appointments'),
      id: z.uuid(),
      attributes: z.strictObject({ status: z.literal('ended'), end_reason: freeText(2000).optional() }),
    }),
  }),
);

/** Who may appoint or end: the Client once there is one; before that, the route permission alone. */
const requireAppointer = (file: CdmFile, action: string) => {
  if (Object.values(file.appointments).some((a) => a.role === 'client')) {
    requireRole(file, ['client'], action);
  }
};

const appointeeOf = (
  rels: Partial<Record<keyof typeof appointeeRelationships, { data: { id: string } }>>,
): { name: keyof typeof appointeeRelationships; appointee: Appointee } => {
  const named = (Object.keys(appointeeRelationships) as (keyof typeof appointeeRelationships)[]).filter(
    (name) => rels[name] !== undefined,
  );
  const [name] = named;
  if (named.length !== 1 || !name) {
    throw new ValidationError({
      detail: 'An appointment names exactly one of user, team, service_account or appointed_organisation.',
      source: { pointer: '/data/relationships' },
    });
  }
  return { name, appointee: { type: appointeeRelationships[name], id: rels[name]?.data.id ?? '' } };
};

export const createAppointment = async (
  { scope, record: scheme, file, body, principal }: CdmWrite,
  now = new Date(),
) => {
  const { data } = parseDocument(createAppointmentDocument, body);
  const { name, appointee } = appointeeOf(data.relationships);
  const { role } = data.attributes;
  const active = Object.values(file.appointments);
  const hasClient = active.some((a) => a.role === 'client');
  if (!hasClient && role !== 'client') {
    throw new ConflictError(
      'Appoint the scheme’s Client first: the Client appoints the other duty holders.',
      {
        pointer: '/data/attributes/role',
      },
    );
  }
  requireAppointer(file, 'appoint duty holders');
  if (singleHolderRoles.has(role) && active.some((a) => a.role === role)) {
    throw new ConflictError(`The scheme already has a ${dutyRoleTitles[role]}; end that appointment first.`, {
      pointer: '/data/attributes/role',
    });
  }
  if (
    active.some(
      (a) => a.role === role && a.appointee.type === appointee.type && a.appointee.id === appointee.id,
    )
  ) {
    throw new ConflictError(`This ${name} is already appointed ${dutyRoleTitles[role]}.`);
  }
  const record = newRecord(
    appointments,
    scheme.org_id,
    {
      attributes: {
        role,
        status: 'active',
        starts_at: data.attributes.starts_at ?? now.toISOString(),
        ended_at: null,
        end_reason: null,
        notes: data.attributes.notes ?? null,
      },
      rels: { scheme: scheme.id, [name]: appointee.id, ...byPrincipal('created_by', principal) },
    },
    now,
  );
  const filed = fileChild(scheme, record);
  const extra = [
    cdmFileWrite(file, { appointments: { ...file.appointments, [record.id]: { role, appointee } } }),
    // An organisation is appointed by its own id, in its own partition.
    ...(appointee.type === 'organisations'
      ? [{ check: organisations.keyOf(appointee.id, appointee.id) }]
      : []),
  ];
  return createRecord(
    scope,
    appointments,
    filed,
    extra,
    (error: WriteRefused) => {
      if (error.op === extra.length) {
        throw new ValidationError({
          detail: 'No such organisation.',
          source: { pointer: '/data/relationships/appointed_organisation/data' },
        });
      }
      throw new ConflictError('The scheme’s duty holders changed while this request was applied; retry.');
    },
    { scheme: scheme.id, ...(name !== 'appointed_organisation' && { [name]: appointee.id }) },
  );
};

export const endAppointment = async (
  { scope, record: appointment, file, body, principal }: CdmWrite,
  now = new Date(),
) => {
  const { data } = parseDocument(endAppointmentDocument, body);
  assertSameId(data.id, appointment.id);
  requireAppointer(file, 'end appointments');
  if (appointment.attributes.status !== 'active') {
    throw new ConflictError('This appointment has already ended.', { pointer: '/data/attributes/status' });
  }
  const next = changedRecord(
    appointments,
    appointment,
    {
      attributes: {
        status: 'ended',
        ended_at: now.toISOString(),
        end_reason: data.attributes.end_reason ?? null,
      },
      rels: byPrincipal('ended_by', principal),
    },
    now,
  );
  const { [appointment.id]: _ended, ...remaining } = file.appointments;
  await commitChecked(
    scope,
    [{ replace: next, was: appointment, as: 'ended' }, cdmFileWrite(file, { appointments: remaining })],
    [],
  );
  return next;
};
