/** Requests for location imports: the inline CSV and an optional import template naming the columns. */
import { z } from 'zod';
import type { Principal } from '../../auth/principal';
import type { Scope } from '../../data/scope';
import type { LocationField } from '../../domain/places/location-rows';
import { readInScope } from '../single';
import { importTemplates } from './definitions';
import { importLocations } from './location-imports';

export const createImportDocument = z.strictObject({
  data: z.strictObject({
    type: z.literal('location-imports'),
    attributes: z.strictObject({ csv: z.string().min(1), file_name: z.string().max(200).optional() }),
    relationships: z
      .strictObject({
        import_template: z.strictObject({
          data: z.strictObject({ type: z.literal('import-templates'), id: z.uuid() }),
        }),
      })
      .optional(),
  }),
});

export const startImport = async (
  scope: Scope,
  orgId: string,
  { data }: z.infer<typeof createImportDocument>,
  author: Principal | null,
) => {
  const templateId = data.relationships?.import_template.data.id;
  const template = templateId ? await readInScope(scope, importTemplates, templateId) : null;
  return importLocations(
    scope,
    orgId,
    {
      csv: data.attributes.csv,
      source: {
        kind: 'inline',
        file_name: data.attributes.file_name ?? null,
        bytes: Buffer.byteLength(data.attributes.csv),
      },
      mapping: (template?.attributes.columns as Partial<Record<LocationField, string>>) ?? {},
      ...(templateId && { templateId }),
    },
    author,
  );
};
