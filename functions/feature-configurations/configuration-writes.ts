/** A feature configuration's change: the stored one's next version, or an unstored switch's first. */
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { changedRecord, commitChecked } from '#shared/engine/record-writes';
import { declaredCrud } from '#shared/engine/simple-crud';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { featureConfigurations } from './definitions';

// The declared writes' schemas load with this module, which only writes load.
const crud = await declaredCrud(featureConfigurations);

type UpdateDocument = { data: { id: string; attributes?: Record<string, unknown> } };

/** What PATCH takes (`enabled`): the declaration's update document. */
export const updateConfigurationDocument = crud.documents.update;

/**
 * Changes a configuration read by `readConfiguration`. A switch not yet stored (version 0) is stored by
 * this first change, as a create refused if its key exists: of two first changes at once, one wins and
 * the other is 409, or 412 when it sent `If-Match` (the tag it read named the unstored switch). Its event
 * is `feature-configuration.updated`, as every change's.
 */
export const updateConfiguration = async (
  scope: Scope,
  record: StoredResource,
  body: unknown,
  now = new Date(),
): Promise<StoredResource> => {
  if (record.version > 0) return crud.update(scope, record, body);
  // The declaration's update document, typed there only as a schema: its data has an id and attributes.
  const { data } = parseDocument(updateConfigurationDocument, body) as UpdateDocument;
  assertSameId(data.id, record.id);
  const first = changedRecord(
    featureConfigurations,
    record,
    { attributes: data.attributes ?? {}, meta: { created_at: now.toISOString() } },
    now,
  );
  await commitChecked(scope, [{ create: first, as: 'updated' }], []);
  return first;
};
