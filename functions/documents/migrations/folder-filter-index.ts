/**
 * Migration 21: folders written before `filter[parent]` and `filter[scheme]`
 * were answered from an index have no entry in them (`lsi2`: `parent#<parent>#<id>`; `gsi2`:
 * `scheme#<scheme>#<id>`), so an indexed filter would miss them. Each folder with a parent or a scheme is
 * rewritten as today's code writes it (the entries its declaration derives); a root without a scheme has none.
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { folders } from '../definitions';

export const folderFilterIndex = reindexStep(folders, {
  expression:
    '#type = :type AND begins_with(pk, :tenant) AND ((attribute_type(#rels.#parent, :id) AND attribute_not_exists(lsi2)) OR (attribute_type(#rels.#scheme, :id) AND attribute_not_exists(gsi2pk)))',
  names: { '#type': 'type', '#rels': 'rels', '#parent': 'parent', '#scheme': 'scheme' },
  values: { ':type': folders.type, ':tenant': 'ORG#', ':id': 'S' },
});
