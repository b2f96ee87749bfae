/**
 * Migration 20: documents and their versions written before their filters
 * were answered from an index have no entry in them (documents: `lsi1` `folder#<folder>#status#…`, `lsi2`
 * `folder#<folder>#type#…`, `gsi2` `DOCUMENTS#<folder>`; versions: `lsi1` `document#<document>#status#…`),
 * so an indexed filter would miss them. Each is rewritten as today's code writes it (the entries its
 * declaration derives); one version is one step per type, run one after the other.
 */
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { reindexStep } from '#shared/engine/reindex-step';
import { documents } from '../definitions';
import { documentVersions } from '../versions/definition';

const select = {
  expression:
    'begins_with(pk, :tenant) AND ((#type = :document AND attribute_not_exists(gsi2pk)) OR (#type = :version AND attribute_not_exists(lsi1)))',
  names: { '#type': 'type' },
  values: { ':tenant': 'ORG#', ':document': documents.type, ':version': documentVersions.type },
};
const documentStep = reindexStep(documents, select);
const versionStep = reindexStep(documentVersions, select);

/** Either type's records: each page's items go to the step of their type. */
export const documentFilterIndex: MigrationStep = {
  select,
  migrate: async (items, now) =>
    (await documentStep.migrate(
      items.filter((i) => i.type === documents.type),
      now,
    )) +
    (await versionStep.migrate(
      items.filter((i) => i.type === documentVersions.type),
      now,
    )),
};
