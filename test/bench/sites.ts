/**
 * Issue 22: who is on a site now, from the sparse index of open attendances, against the same answer
 * filtered from the organisation's whole attendance history, at two sizes of history; the evacuation roll
 * call of 2,000 people as a CSV export within one request; and a specification evaluated for 100 people in
 * one BatchGetItem, against one GetItem per person; and the 2,000 signed out by the schedule at closing time. Counts of DynamoDB calls and items examined, and times,
 * side by side in one run.
 */
import { performance } from 'node:perf_hooks';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { runDue } from '#functions/due-work/run';
import { parseExport } from '#functions/exports/request';
import { requestExport } from '#functions/exports/run';
import { users } from '#functions/people/users';
import { evaluateSpecification } from '#functions/qualifications/evaluation';
import { onSitePartition, siteAttendances } from '#functions/site-attendances/definitions';
import { AUTO_SIGN_OUT } from '#functions/site-attendances/due-work';
import { bulkPut } from '#shared/data/bulk';
import { documents, dynamodb, tableName } from '#shared/data/clients';
import { dueEntry } from '#shared/data/due-work';
import { uuidv7 } from '#shared/data/ids';
import { scopeOf, systemActor } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { listResources } from '#shared/engine/collection';
import { newRecord } from '#shared/engine/record-writes';

let calls = 0;
let examined = 0;
dynamodb.middlewareStack.add(
  (next) => async (args) => {
    const result = await next(args);
    calls++;
    const output = result.output as
      | { ScannedCount?: number; Responses?: Record<string, unknown[]> }
      | undefined;
    examined += output?.ScannedCount ?? Object.values(output?.Responses ?? {}).flat().length;
    return result;
  },
  { step: 'initialize', name: 'sitesBenchCounter' },
);

const measure = async <T>(work: () => Promise<T>) => {
  [calls, examined] = [0, 0];
  const started = performance.now();
  const result = await work();
  return { result, calls, examined, ms: performance.now() - started };
};

const ON_SITE = 2_000;

/** An organisation with `ON_SITE` people on one site now, and `history` attendances that ended. */
const seedSite = async (history: number) => {
  const org = uuidv7();
  const site = uuidv7();
  const attendance = (i: number, open: boolean) => {
    const record = newRecord(siteAttendances, org, {
      attributes: {
        method_in: 'kiosk',
        attendee_kind: 'worker',
        guest: { name: `Worker ${i}`, company: 'Acme Civils' },
        signed_in_at: new Date(Date.now() - (open ? 3_600_000 : 86_400_000 + i * 1000)).toISOString(),
        signed_out_at: open ? null : new Date(Date.now() - 60_000 - i * 1000).toISOString(),
        method_out: open ? null : 'auto',
        checks: { outcome: 'not_checked' },
      },
      meta: { on_site: open },
      rels: { location: site },
    });
    if (!open) return [record];
    // On the schedule for the site's closing, as a sign-in puts it.
    const closing = dueEntry(AUTO_SIGN_OUT.name, org, record.id, Date.now() + 3_600_000);
    return [
      {
        ...record,
        gsi1pk: onSitePartition(org, site),
        gsi1sk: record.id,
        schedule: { pk: closing.pk, sk: closing.sk },
      },
      closing,
    ];
  };
  await bulkPut(
    [
      ...Array.from({ length: history }, (_, i) => attendance(i, false)),
      ...Array.from({ length: ON_SITE }, (_, i) => attendance(i, true)),
    ].flat() as unknown as Record<string, unknown>[],
    8,
  );
  return { org, site };
};

const onSiteNow = (org: string, query: Record<string, string>) =>
  listResources(
    {
      scope: scopeOf([org]),
      method: 'GET',
      path: `/v3/orgs/${org}/site-attendances`,
      query,
      baseUrl: 'https://bench',
    },
    siteAttendances,
  );

export const benchSites = async (histories: readonly number[]) => {
  const figures: Record<string, string | number> = { people_on_site: ON_SITE };
  for (const history of histories) {
    const { org, site } = await seedSite(history);
    const page = { 'page[limit]': '100', 'filter[on_site]': 'true' };
    const sparse = await measure(() => onSiteNow(org, { ...page, 'filter[location]': site }));
    // The same question without the site's index: the history filtered (`on_site` and the site).
    const filtered = await measure(() => onSiteNow(org, page));
    figures[`on_site_now_history_${history}`] =
      `index: ${sparse.result.meta.pagination.counts?.resources} on site, ${sparse.calls} Query calls (1 MB pages), ${sparse.examined} items examined, ${sparse.ms.toFixed(0)} ms; ` +
      `filtering the history: ${filtered.examined} items examined, ${filtered.ms.toFixed(0)} ms ` +
      `(${(filtered.examined / sparse.examined).toFixed(1)}× the items)`;
    if (history === histories.at(-1)) {
      const body = {
        data: {
          type: 'exports',
          attributes: {
            subject_type: 'site-attendances',
            format: 'csv',
            filters: { on_site: 'true', location: site },
          },
        },
      };
      const principal = {
        id: uuidv7(),
        kind: 'service-account',
        name: 'bench',
        permissions: new Map(),
        teams: {},
      } as const;
      const rollCall = await measure(() =>
        requestExport(
          scopeOf([org], undefined, systemActor('bench')),
          org,
          parseExport(body),
          principal,
          'https://bench',
        ),
      );
      const record = 'record' in rollCall.result ? rollCall.result.record : null;
      figures.roll_call_csv_export =
        `${record?.attributes.row_count ?? 'a job'} rows written within the request (201, ${record?.attributes.status}), ` +
        `${rollCall.calls} DynamoDB calls, ${rollCall.examined} items examined, ${rollCall.ms.toFixed(0)} ms, history ${history}`;
      // Closing time: the due-work runner signs all of them out (one run, its clock moved past closing).
      const closing = await measure(() => runDue(Date.now() + 2 * 3_600_000, { orgId: org }));
      const left = await onSiteNow(org, { ...page, 'filter[location]': site });
      figures.closing_time_sign_out =
        `${closing.result.ran} signed out automatically in one run (${closing.result.failed} failed), ` +
        `${closing.calls} DynamoDB calls (${(closing.calls / Math.max(1, closing.result.ran)).toFixed(2)} an attendance, with the shards' Queries), ` +
        `${closing.ms.toFixed(0)} ms; on site after: ${left.meta.pagination.counts?.resources}`;
    }
  }

  // A specification over 100 people, each holding 20 awards (kept on their record), against one read per person.
  const org = uuidv7();
  const type = uuidv7();
  const people = Array.from({ length: 100 }, (_, p) => {
    const user = newRecord(users, org, { attributes: { email: `p${p}@bench.example`, status: 'active' } });
    const awards = Object.fromEntries(
      Array.from({ length: 20 }, (_, a) => {
        const id = uuidv7();
        const entry = {
          id,
          qualification_type: a === 0 ? type : uuidv7(),
          status: 'valid',
          issued_at: '2026-01-01',
          expires_at: '2030-01-01',
          number: `N-${p}-${a}`,
        };
        return [`award#${id}`, JSON.stringify(entry)];
      }),
    );
    return { ...user, ...awards } as StoredResource;
  });
  await bulkPut(people as unknown as Record<string, unknown>[]);
  const specification = newRecord({ ...users, type: 'qualification-specifications' }, org, {
    attributes: { name: 'Bench', rule: { all_of: [{ qualification_type: type }] } },
  });
  const ids = people.map((p) => p.id);
  const batched = await measure(() =>
    evaluateSpecification(scopeOf([org]), specification, ids, '2026-11-25'),
  );
  const perPerson = await measure(() =>
    Promise.all(
      ids.map((id) => documents.send(new GetCommand({ TableName: tableName, Key: users.keyOf(org, id) }))),
    ),
  );
  figures.evaluation_100_people =
    `${batched.result.filter((e) => e.attributes.met).length} of 100 met, ${batched.calls} BatchGetItem call, ${batched.examined} items, ${batched.ms.toFixed(0)} ms; ` +
    `one GetItem per person: ${perPerson.calls} calls, ${perPerson.ms.toFixed(0)} ms (${(perPerson.ms / batched.ms).toFixed(1)}× the time)`;
  return figures;
};
