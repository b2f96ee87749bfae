/**
 * An export request's body: its subject (which decides the permission needed), format, and the filters
 * and sort of the subject's list, checked as that list checks them, with problems at their pointers.
 */
import * as z from 'zod';
import { equipmentItems, vehicles } from '#functions/assets/definitions';
import { auditEvents } from '#functions/audit/audit-events';
import { customerContacts } from '#functions/customers/definitions';
import { locations, properties } from '#functions/places/definitions';
import { operations, schemes, workOrders } from '#functions/projects/definitions';
import { siteAttendances } from '#functions/site-attendances/definitions';
import { permits } from '#functions/street-works/definitions';
import type { Permission } from '#shared/domain/permissions';
import type { ResourceDefinition } from '#shared/engine/resource-definition';
import { line } from '#shared/jsonapi/attribute-types';
import { parseCollectionQuery, type QueryParameters } from '#shared/jsonapi/collection-query';
import { ValidationError } from '#shared/jsonapi/errors';
import { parseDocument } from '#shared/jsonapi/request-document';

/** What can be exported, and the permission listing it needs (the same as its collection route's). */
export const exportSubjects: Record<
  string,
  { definition: ResourceDefinition | null; permission: Permission }
> = {
  equipment: { definition: equipmentItems, permission: 'assets:view' },
  vehicles: { definition: vehicles, permission: 'assets:view' },
  schemes: { definition: schemes, permission: 'projects:view' },
  'work-orders': { definition: workOrders, permission: 'projects:view' },
  operations: { definition: operations, permission: 'projects:view' },
  locations: { definition: locations, permission: 'places:view' },
  properties: { definition: properties, permission: 'places:view' },
  'audit-events': { definition: auditEvents, permission: 'audit-events:view' },
  'customer-contacts': { definition: customerContacts, permission: 'customers:view' },
  permits: { definition: permits, permission: 'street-works:view' },
  // An evacuation roll call: filters on_site=true and the site, read from the on-site index.
  'site-attendances': { definition: siteAttendances, permission: 'site-attendances:view' },
  // Computed, not stored: `filters.filter` is the expression GET /v3/cost-rollups takes.
  'cost-rollups': { definition: null, permission: 'cost-lines:view' },
};

export const createExportDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('exports'),
      attributes: z.strictObject({
        subject_type: z.enum(Object.keys(exportSubjects) as [string, ...string[]]),
        format: z.enum(['csv', 'json']),
        filters: z.record(z.string().regex(/^[a-z_.]{1,100}$/), line(500)).optional(),
        sort: line(100).optional(),
      }),
    }),
  }),
);

/** The export request: its subject (for the handler's permission check) and its parsed query. */
export const parseExport = (body: unknown) => {
  const { data } = parseDocument(createExportDocument, body);
  const { filters = {}, sort } = data.attributes;
  const subject = exportSubjects[data.attributes.subject_type] as (typeof exportSubjects)[string];
  if (!subject.definition) {
    const { filter, ...other } = filters;
    const [extra] = Object.keys(other);
    if (!filter || extra !== undefined || sort) {
      const at = extra !== undefined ? `filters/${extra}` : sort ? 'sort' : 'filters';
      throw new ValidationError({
        detail:
          'A cost roll-up export takes exactly filters.filter: the expression GET /v3/cost-rollups takes.',
        source: { pointer: `/data/attributes/${at}` },
      });
    }
    return { attributes: data.attributes, subject, query: null, rollUpFilter: filter };
  }
  const parameters: QueryParameters = {
    ...Object.fromEntries(Object.entries(filters).map(([k, v]) => [`filter[${k}]`, v])),
    ...(sort && { sort }),
  };
  try {
    const query = parseCollectionQuery(
      parameters,
      subject.definition.collection ?? { filters: {}, sorts: {}, defaultSort: 'created_at', includes: [] },
    );
    return { attributes: data.attributes, subject, query, rollUpFilter: null };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const pointerOf = (parameter = '') => {
      const field = /^filter\[(.+)\]$/.exec(parameter)?.[1];
      return field ? `/data/attributes/filters/${field}` : '/data/attributes/sort';
    };
    const problems = (error.problems.length > 0 ? error.problems : [error]).map(
      (p) =>
        new ValidationError({
          detail: p.detail ?? p.message,
          source: { pointer: pointerOf(p.source?.parameter) },
        }),
    );
    throw new ValidationError({ problems });
  }
};

export type ExportRequest = ReturnType<typeof parseExport>;
