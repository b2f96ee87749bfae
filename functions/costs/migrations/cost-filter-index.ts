/**
 * Migration 22: cost sheets and lines written before their filters were answered from an index (issue 42,
 * item 1) have no entry under them (sheets: `lsi1` `status#<status>#<id>`; lines: `lsi1`
 * `kind#<kind>#<id>`, `lsi2` `cost_sheet#<sheet>#<id>`) and are in no status or kind count, so those
 * filters never found them. Each is rewritten as today's code writes it (the entries its declaration
 * derives, its count moved in the same transaction); one step for both types, each page's items to their own.
 */
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { reindexStep } from '#shared/engine/reindex-step';
import { costLines, costSheets } from '../definitions';

const select = {
  expression:
    'begins_with(pk, :tenant) AND (#type = :sheet OR #type = :line) AND (attribute_not_exists(lsi1) OR attribute_not_exists(#counted) OR (#type = :line AND attribute_type(#rels.#sheet, :string) AND attribute_not_exists(lsi2)))',
  names: { '#type': 'type', '#counted': 'counted', '#rels': 'rels', '#sheet': 'cost_sheet' },
  values: { ':tenant': 'ORG#', ':sheet': costSheets.type, ':line': costLines.type, ':string': 'S' },
};
const sheetStep = reindexStep(costSheets, select);
const lineStep = reindexStep(costLines, select);

export const costFilterIndex: MigrationStep = {
  select,
  migrate: async (items, now) =>
    (await sheetStep.migrate(
      items.filter((i) => i.type === costSheets.type),
      now,
    )) +
    (await lineStep.migrate(
      items.filter((i) => i.type === costLines.type),
      now,
    )),
};
