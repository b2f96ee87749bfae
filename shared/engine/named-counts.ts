/**
 * Counts a record keeps of those naming it (a specification of the job roles and sites' settings that
 * require it): a `keep` moment (`moments.ts`) that declarations name.
 */
import type { StoredResource } from '../data/stored-resource';
import type { Check } from './record-writes';
import type { ResourceDefinition } from './resource-definition';
import { relatedIds } from './serialise';

/**
 * A `keep` counting a to-one or to-many relationship on the records it names: each keeps a number
 * (`count`) moved in the naming record's own transaction as the relationship is set, changed or cleared
 * and as the record goes, so a named record can refuse deletion while named (its `guardDelete`). A refused
 * move (the record named is absent) is a 400 at the relationship.
 */
export const countOnNamed =
  (relationship: string, target: ResourceDefinition, count: string) =>
  (before: StoredResource | null, after: StoredResource | null): { checks: Check[] } => {
    const ids = (record: StoredResource | null) => (record ? relatedIds(record, relationship) : []);
    const [was, is] = [ids(before), ids(after)];
    const orgId = (after ?? before)?.org_id ?? '';
    const move = (id: string, by: number): Check => ({
      op: { keep: { key: target.keyOf(orgId, id), add: { [count]: by } } },
      pointer: `/data/relationships/${relationship}/data`,
    });
    return {
      checks: [
        ...was.filter((id) => !is.includes(id)).map((id) => move(id, -1)),
        ...is.filter((id) => !was.includes(id)).map((id) => move(id, 1)),
      ],
    };
  };
