/**
 * What a collection of records kept for whole days is (`retention.ts` reads, counts and expires them), and
 * the key of a type kept by creator: apart so the declarations naming them (jobs, exports) load none of
 * the reads with every function's start-up.
 */
import { type AccessPattern, fill } from './access-patterns';

/**
 * A collection kept for `days`: one organisation's records in a partition of the table (or of `gsi1` by
 * id, or of `lsi1` by a UUIDv7 after `prefix`), each counted in its day of creation under `counter`.
 */
export interface Kept {
  orgId: string;
  days: number;
  partition: { pk: string; index?: 'gsi1' | 'lsi1'; prefix?: string };
  counter: string;
}

/**
 * A principal's own records of one kind in an organisation (exports, jobs), filed on `gsi1` under
 * `<KIND>#<org>#<principal>` by id (`keptIndexKeys` in `retention.ts`), so its list never reads another's.
 */
export const keptByCreator = (
  kind: string,
  byCreator: AccessPattern<`${string}{org_id}#{principal_id}`>,
  days: number,
  orgId: string,
  principalId: string,
): Kept => ({
  orgId,
  days,
  partition: { pk: fill(byCreator.pk, { org_id: orgId, principal_id: principalId }), index: 'gsi1' },
  counter: `${kind}#${principalId}`,
});

/** A type kept by creator (exports, jobs): its `by-creator` key, `<KIND>#<org>#<principal>` by id. */
export const byCreatorPattern = <Kind extends string>(kind: Kind) =>
  ({
    index: 'gsi1',
    pk: `${kind}#{org_id}#{principal_id}`,
    sk: '{id}',
    about:
      "a principal's own records of the type, by id; counted by day of creation in `ORG#<org_id>#counters`/`<type>#<principal>#days`",
  }) as const;
