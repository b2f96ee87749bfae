/**
 * The deprecated full update of a scheme: name, code, description, anticipated dates, labels and the
 * `template` relationship are replaced as a whole (what the body leaves out is cleared).
 */
import * as z from 'zod';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { changedRecord, replaceRecord } from '#shared/engine/record-writes';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { schemes } from './definitions';
import { schemeAttributes } from './hierarchy';

export const replaceSchemeDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('schemes'),
      id: z.uuid(),
      attributes: z.strictObject(schemeAttributes),
      relationships: z
        .strictObject({
          template: z.strictObject({
            data: z.strictObject({ type: z.literal('scheme-templates'), id: z.uuid() }).nullable(),
          }),
        })
        .optional(),
    }),
  }),
);

export const replaceScheme = async (
  scope: Scope,
  scheme: StoredResource,
  body: unknown,
): Promise<StoredResource> => {
  const { data } = parseDocument(replaceSchemeDocument, body);
  assertSameId(data.id, scheme.id);
  const cleared = { code: undefined, description: undefined, dates: undefined, labels: undefined };
  const next = changedRecord(schemes, scheme, {
    attributes: { ...cleared, ...data.attributes },
    rels: { template: data.relationships?.template.data?.id ?? null },
  });
  return replaceRecord(scope, schemes, { replace: next, was: scheme });
};
