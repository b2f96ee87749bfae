/**
 * Location imports: a CSV matched on the organisation's own `reference`, so a corrected re-import
 * updates rather than duplicates, and an unchanged row writes nothing. Rows are bulk-written (no
 * per-row events); the import record is the audit trail: who, when, the source, counts of created,
 * updated, unchanged and rejected rows, and each rejected row's line and reason. A new location takes
 * its reference's claim in the transaction that writes it (`bulkClaimedPut`), as a single create does,
 * so two imports (or an import and a create) racing on one reference make one location: the row that
 * lost is rejected, saying so.
 */
import type { Principal } from '#shared/auth/principal';
import { bulkClaimedPut, bulkPut, type ClaimedItem } from '#shared/data/bulk';
import { batchGet } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import { counterKey, type StoredResource } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { changedRecord, newRecord } from '#shared/engine/record-writes';
import { ValidationError } from '#shared/jsonapi/errors';
import { locationImports, locations, referenceClaim } from '../definitions';
import { parseCsv } from '../rules/csv';
import { columnIndexes, type LocationField, type LocationRow, mapLocationRows } from '../rules/location-rows';

/** Errors kept on the import record: enough to fix a file, few enough to keep the record small. */
export const STORED_ERRORS_MAX = 1000;

/** Order-insensitive equality of plain JSON values. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([, v]) => v !== undefined)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, v]) => [k, canonical(v)]),
        )
      : value;
const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

export interface ImportSource {
  csv: string;
  source: Record<string, unknown>;
  mapping?: Partial<Record<LocationField, string>>;
  templateId?: string;
}

export const SLICE_ROWS = 2_000;

/**
 * The writes one slice of rows needs: new locations with their claims (and the rows they come from),
 * and changed locations. `idOf` names a new row's location (by default a fresh id).
 */
export const changesFor = async (
  orgId: string,
  rows: readonly LocationRow[],
  now: Date,
  idOf?: (row: LocationRow) => string,
) => {
  const claims = await batchGet<{ sk: string; holder_id: string }>(
    rows.map((row) => referenceClaim(orgId, row.reference)),
  );
  const idByReference = new Map(claims.map((c) => [c.sk, c.holder_id]));
  const existing = new Map(
    (await batchGet([...idByReference.values()].map((id) => locations.keyOf(orgId, id)))).map((l) => [
      l.id,
      l,
    ]),
  );
  const creates: ClaimedItem[] = [];
  const createdRows: LocationRow[] = [];
  const updates: Record<string, unknown>[] = [];
  for (const row of rows) {
    const current = existing.get(idByReference.get(row.reference) ?? '');
    if (!current) {
      const location = newRecord(locations, orgId, { attributes: row.attributes }, now, idOf?.(row));
      creates.push({
        item: { ...location },
        claim: { ...referenceClaim(orgId, row.reference), holder_id: location.id },
      });
      createdRows.push(row);
    } else if (!same(current.attributes, row.attributes)) {
      // A row is the whole truth for its location: fields it lacks are cleared.
      const attributes = { address: undefined, location: undefined, ...row.attributes };
      updates.push({ ...changedRecord(locations, current, { attributes }, now) });
    }
  }
  return { creates, createdRows, updates, created: creates.length, updated: updates.length };
};

/** A row whose reference another location took between this import's look-up and its write. */
export interface RowConflict {
  line: number;
  message: string;
}

/**
 * Writes one slice's changes: updates as they are, new locations each with its reference's claim. The new
 * rows whose reference another writer claimed first are not written: they come back as conflicts.
 */
export const writeChanges = async (
  changes: Awaited<ReturnType<typeof changesFor>>,
  inFlight?: number,
): Promise<{ calls: number; conflicts: RowConflict[] }> => {
  const [updated, claimed] = await Promise.all([
    bulkPut(changes.updates, inFlight),
    bulkClaimedPut(changes.creates, inFlight),
  ]);
  const conflicts = claimed.refused.flatMap((at) => {
    const row = changes.createdRows[at];
    return row
      ? [
          {
            line: row.line,
            message: `reference ${row.reference} was taken by another location while this import ran`,
          },
        ]
      : [];
  });
  return { calls: updated.calls + claimed.calls, conflicts };
};

/** The file's rows, mapped: a file that is not CSV, or has no reference column, is a 400. */
export const readRows = (csv: string, mapping?: Partial<Record<LocationField, string>>) => {
  const parsed = parseCsv(csv);
  if (!parsed.ok)
    throw new ValidationError({ detail: parsed.error, source: { pointer: '/data/attributes/csv' } });
  const columns = columnIndexes(parsed.header, mapping);
  if (columns.reference < 0) {
    throw new ValidationError({
      detail: `The file has no ${mapping?.reference ?? 'reference'} column (found: ${parsed.header.join(', ')}).`,
      source: { pointer: '/data/attributes/csv' },
    });
  }
  return { parsed, ...mapLocationRows(parsed.rows, columns) };
};

/**
 * What a finished import records: its counts and the rejected rows (the first thousand). `counts.created`
 * is of the locations written; `conflicts` are the valid rows another writer's claim refused (`count` of
 * them, `errors` the first thousand), rejected with the rest.
 */
export const outcomeOf = (
  rows: number,
  counts: { valid: number; created: number; updated: number },
  rejected: readonly { line: number; message: string }[],
  conflicts: { count: number; errors: readonly RowConflict[] } = { count: 0, errors: [] },
) => {
  const errors = [...rejected, ...conflicts.errors].sort((a, b) => a.line - b.line);
  const refused = rejected.length + conflicts.count;
  return {
    status: 'completed',
    counts: {
      rows,
      created: counts.created,
      updated: counts.updated,
      unchanged: counts.valid - conflicts.count - counts.created - counts.updated,
      rejected: refused,
    },
    errors: errors.slice(0, STORED_ERRORS_MAX),
    errors_truncated: refused > STORED_ERRORS_MAX,
  };
};

/**
 * Runs an import to completion and returns its record. A file that is not CSV, or has no reference
 * column, is a 400 and writes nothing at all (not even the import record).
 */
export const importLocations = async (
  scope: Scope,
  orgId: string,
  { csv, source, mapping, templateId }: ImportSource,
  author: Principal | null,
  now = new Date(),
  /** An import record awaiting its uploaded file, which this run completes. */
  awaiting?: StoredResource,
): Promise<StoredResource> => {
  const { parsed, valid, rejected } = readRows(csv, mapping);

  // Rows go through in slices, two at a time, so one slice's look-ups overlap another's writes; the
  // two pipelines share the same number of write calls in flight as a single bulk writer would use.
  let created = 0;
  let updated = 0;
  const report = { calls: 0 };
  const conflicts: RowConflict[] = [];
  const slices: LocationRow[][] = [];
  for (let i = 0; i < valid.length; i += SLICE_ROWS) slices.push(valid.slice(i, i + SLICE_ROWS));
  let next = 0;
  const pipeline = async () => {
    while (next < slices.length) {
      const slice = slices[next++] ?? [];
      const changes = await changesFor(orgId, slice, now);
      // Await first, then add: `x += await …` would read x before the await and lose the other pipeline's calls.
      const written = await writeChanges(changes, 2);
      created += changes.created - written.conflicts.length;
      updated += changes.updated;
      report.calls += written.calls;
      conflicts.push(...written.conflicts);
    }
  };
  await Promise.all([pipeline(), pipeline()]);
  const outcome = {
    attributes: {
      ...outcomeOf(parsed.rows.length, { valid: valid.length, created, updated }, rejected, {
        count: conflicts.length,
        errors: conflicts.slice(0, STORED_ERRORS_MAX),
      }),
      source,
      started_at: now.toISOString(),
      finished_at: new Date().toISOString(),
    },
    meta: { write_calls: report.calls },
    rels: {
      author: author?.kind === 'user' ? author.id : null,
      author_service_account: author?.kind === 'service-account' ? author.id : null,
      import_template: templateId ?? null,
    },
  };
  const record = awaiting
    ? changedRecord(locationImports, awaiting, outcome, now)
    : newRecord(locationImports, orgId, outcome, now);
  // The created locations are counted in the same transaction as the import record that reports them.
  await commit(scope, [
    awaiting ? { replace: record, was: awaiting, as: 'processed' } : { create: record },
    { count: { key: counterKey(orgId, locations.type), by: created } },
  ]);
  return record;
};
