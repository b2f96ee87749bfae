/**
 * Migration 26: briefings written before their filters were answered from indexes (issue 42, item 1) have
 * no entry under their agent and status (`gsi2`: `BRIEFINGS#<org>#<agent>` / `status#<status>#<id>`) nor,
 * once generated, under their agent and generation time (`lsi1`: `agent#<agent>#<generated_at>#<id>`), so
 * an agent's list filtered by either never found them. Each is rewritten as today's code writes it.
 */
import { reindexStep } from '#shared/engine/reindex-step';
import { briefings } from '../definitions';

export const briefingFilterIndex = reindexStep(briefings, {
  expression:
    '#type = :type AND begins_with(pk, :tenant) AND attribute_type(#rels.#agent, :string) AND (attribute_not_exists(gsi2pk) OR (attribute_type(#meta.#generated, :string) AND attribute_not_exists(lsi1)))',
  names: {
    '#type': 'type',
    '#rels': 'rels',
    '#agent': 'agent',
    '#meta': 'meta',
    '#generated': 'generated_at',
  },
  values: { ':type': briefings.type, ':tenant': 'ORG#', ':string': 'S' },
});
