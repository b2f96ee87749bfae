/**
 * Issue 18, items 1 and 3: events and the change feed.
 *
 * Every write that changes a record commits its event in the same transaction, declared once per
 * resource type. The walk below sends every write route the service has (the every-record builder's
 * requests, then every delete and restore) and, around each request, reads the whole table: each record
 * the request created, changed or removed has exactly one event, of the right action, carrying the
 * record as it became (or its identifier, for a deletion), made by the caller; a request that failed
 * changed nothing and left no event. The feed then serves those events, in order, with a cursor, only to
 * callers who may view their subjects. Item 7: the audit consumer turns every one of those events into
 * its permanent audit entry.
 */
import { createHash } from 'node:crypto';
import { ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessionPrincipal, startSession } from '#shared/auth/sessions';
import { documents, tableName } from '#shared/data/clients';
import { LIFECYCLE_ACTIONS, type StoredEvent } from '#shared/data/events';
import type { StoredResource } from '#shared/data/stored-resource';
import { matchRoute, type Route, resourceTypes, routes } from '#shared/routes';
import { createServiceAccountClient } from '../../infra/local/records';
import { type ApiResponse, startTestApi, type TestApi } from '../support/api';
import { deliverEvents } from '../support/event-stream';
import {
  buildEveryRecord,
  deliverStreetWorksEvent,
  type EveryRecord,
  requestBodies,
} from '../support/every-record';
import { startJobWorkers } from '../support/job-workers';
import { STREET_WORKS_ORGS } from '../support/street-works-config';
import { newTenant, type Tenant } from '../support/tenants';

type Item = Record<string, unknown> & { pk: string; sk: string };

/** JSON with every object's members in one order, whatever order DynamoDB answered them in. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Set)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v instanceof Set
        ? [...v].sort()
        : v,
  );

/** The whole table (this file's own), by key. */
const table = async (): Promise<Map<string, Item>> => {
  const items = new Map<string, Item>();
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page: ScanCommandOutput = await documents.send(
      new ScanCommand({ TableName: tableName, ExclusiveStartKey }),
    );
    for (const item of (page.Items ?? []) as Item[]) items.set(`${item.pk}\n${item.sk}`, item);
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
};

/** A tenant record of a type the service serves, at its own key. */
const isRecord = (item: Item, org: string): item is Item & StoredResource =>
  typeof item.type === 'string' &&
  item.pk === `ORG#${org}#${item.type}` &&
  item.sk === item.id &&
  typeof item.version === 'number';

/**
 * Types whose changes are not events: audit entries (they record events), internal CDM state, and
 * webhook deliveries (an event about a delivery would itself be delivered, without end).
 */
const SILENT = new Set(['audit-events', 'scheme-cdm-files', 'webhook-deliveries']);

/** Types that declare events but are never written: the permission catalogue is the code's. */
// Acknowledgements are written by a user acknowledging their own envelope, which the walk (a service
// account) has none of: notification-acknowledgements.test.ts proves their events and audit entries.
const NOT_WRITTEN_BY_ROUTES = ['iam-permissions', 'notification-acknowledgements'];

interface Change {
  kind: 'created' | 'changed' | 'removed';
  before?: StoredResource;
  after?: StoredResource;
}

interface Step {
  what: string;
  status: number;
  changes: Map<string, Change>;
  events: StoredEvent[];
  /** Items of any kind that the step added, changed or removed. */
  touched: number;
}

const diff = (
  what: string,
  status: number,
  org: string,
  before: Map<string, Item>,
  after: Map<string, Item>,
) => {
  const changes = new Map<string, Change>();
  const events: StoredEvent[] = [];
  let touched = 0;
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const [was, now] = [before.get(key), after.get(key)];
    if (canonical(was) === canonical(now)) continue;
    // A request's budget is charged whether or not its write is refused (docs/request-budgets.md): its
    // lease is the caller's, not the write's, and a cold container leases a request at a time.
    if (String((now ?? was)?.pk).startsWith('BUDGET#')) continue;
    touched++;
    if (now?.pk === `EVENTS#${org}` && !was) events.push(now as unknown as StoredEvent);
    const record = (now ?? was) as Item;
    if (!isRecord(record, org) || SILENT.has(record.type)) continue;
    const id = `${record.type}/${record.id}`;
    if (!was) changes.set(id, { kind: 'created', after: now as unknown as StoredResource });
    else if (!now) changes.set(id, { kind: 'removed', before: was as unknown as StoredResource });
    else if (was.version !== now.version)
      changes.set(id, {
        kind: 'changed',
        before: was as unknown as StoredResource,
        after: now as unknown as StoredResource,
      });
  }
  return { what, status, changes, events, touched };
};

/**
 * A change kept on the other side of a relationship (a user's teams, a vehicle's equipment, a user's
 * grant names, a node's cost sums): only `rels` lists or kept attributes (`<kind>#<id>`: `carries#`, `held#`)
 * moved, by ids that are the subjects of the step's own events, or cost sums (`costs#…`) in a step whose
 * events are of a cost line or sheet.
 */
const isUpkeep = (change: Change, step: Step) => {
  const { before, after } = change;
  if (!before || !after) return false;
  const kept = (record: StoredResource) =>
    Object.fromEntries(Object.entries(record).filter(([name]) => name.includes('#')));
  const strip = (record: StoredResource) => {
    const { rels: _r, version: _v, ...rest } = record;
    return canonical(Object.fromEntries(Object.entries(rest).filter(([name]) => !name.includes('#'))));
  };
  if (strip(before) !== strip(after)) return false;
  const moved = Object.keys({ ...before.rels, ...after.rels }).flatMap((name) => {
    const [was, now] = [before.rels[name], after.rels[name]].map((v) => [v ?? []].flat().map(String));
    return [...(was ?? []), ...(now ?? [])].filter((id) => !was?.includes(id) || !now?.includes(id));
  });
  const [keptBefore, keptAfter] = [kept(before), kept(after)];
  const keptMoved = Object.keys({ ...keptBefore, ...keptAfter }).filter(
    (name) => canonical(keptBefore[name]) !== canonical(keptAfter[name]),
  );
  // A node's or sheet's cost sums (`costs#<bucket>#<measure>`) move with the event of the line or sheet;
  // a count kept on a record (a job role's holders, a qualification type's awards) with the event of the
  // record counted.
  const sums = keptMoved.filter((name) => name.startsWith('costs#') || name.startsWith('count#'));
  const summed = sums.every((name) =>
    step.events.some((e) =>
      name.startsWith('costs#')
        ? e.subject.type === 'cost-lines' || e.subject.type === 'cost-sheets'
        : e.subject.id !== after.id,
    ),
  );
  const all = [
    ...moved,
    ...keptMoved.filter((name) => !sums.includes(name)).map((name) => name.slice(name.indexOf('#') + 1)),
  ];
  return (
    all.length + sums.length > 0 && summed && all.every((id) => step.events.some((e) => e.subject.id === id))
  );
};

let api: TestApi;
let tenant: Tenant;
let every: EveryRecord;
let token: string;
let adminId: string;
let workers: Awaited<ReturnType<typeof startJobWorkers>> | undefined;
const steps: Step[] = [];
const succeeded = new Set<string>();

/** The test API, with every write it sends watched: the table read before and after. */
const watched = (inner: TestApi, org: string): TestApi => ({
  ...inner,
  request: async (method, path, options) => {
    const { match } = matchRoute(method, path.split('?')[0] ?? '');
    if (method === 'GET' || !match) return inner.request(method, path, options);
    const before = await table();
    const res = await inner.request(method, path, options);
    steps.push(diff(`${method} ${match.route.id}`, res.status, org, before, await table()));
    if (res.status < 300) succeeded.add(match.route.id);
    return res;
  },
});

/** Runs a write that does not come through HTTP (an SNS message processed), watched the same way. */
const watch = async (what: string, org: string, write: () => Promise<unknown>) => {
  const before = await table();
  await write();
  steps.push(diff(what, 200, org, before, await table()));
};

/** Who may make the writes the builder leaves to the end: the admin, bar CDM duties. */
const callerOf = (route: Route) =>
  ({
    createHazardProposal: every.dutyHolders.contractor,
    decideHazardProposal: every.dutyHolders.client,
    acceptHazardProposal: every.dutyHolders.client,
    rejectHazardProposal: every.dutyHolders.client,
    endAppointment: every.dutyHolders.client,
  })[route.id] ?? token;

const routeById = new Map<string, Route>(routes.map((r) => [r.id, r]));

/** Sends a route as `callerOf` says, naming the builder's records (or `ids`), with its test body. */
const send = (route: Route, ids: Record<string, string> = {}): Promise<ApiResponse> => {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? every.idFor(route, name));
  const body = requestBodies[route.id]?.({ ...every.ids, ...ids });
  return watched(api, tenant.org.id).request(route.method, path, {
    token: callerOf(route),
    ...(body && { body }),
  });
};
const sendId = (id: string, ids?: Record<string, string>) => send(routeById.get(id) as Route, ids);

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Events Org', 2, STREET_WORKS_ORGS.TW);
  token = await api.token(tenant.admin);
  adminId = tenant.admin.principalId;
  const org = tenant.org.id;
  every = await buildEveryRecord(watched(api, org), tenant, { token, reference: 'TW' });
  // Street Manager's messages are processed, not requested: one more, watched.
  await watch('street-works notification', org, () =>
    deliverStreetWorksEvent(org, 'PERMIT_GRANTED', 'PERMIT', 'TW-P-2'),
  );
  // What the builder does not do: a hazard proposal decided, an appointment ended, an uploaded import
  // processed.
  const proposal = await sendId('createHazardProposal');
  await sendId('decideHazardProposal', { hazard_proposal_id: proposal.body.data?.id });
  // And one each accepted and rejected by the proposals' declared moves, the Client deciding.
  for (const verb of ['acceptHazardProposal', 'rejectHazardProposal']) {
    const proposed = await sendId('createHazardProposal');
    const decided = await sendId(verb, { hazard_proposal_id: proposed.body.data?.id });
    expect(decided.status, decided.text).toBe(200);
  }
  // A proposed change accepted and another rejected by their declared moves, each by the other party.
  for (const verb of ['accept', 'reject']) {
    const proposed = await watched(api, org).request(
      'POST',
      `/v3/construction-phase-plans/${every.ids.construction_phase_plan_id}/proposed-changes`,
      {
        token: every.dutyHolders.client,
        body: {
          data: {
            type: 'construction-phase-plan-proposed-changes',
            attributes: {
              reason: `To ${verb}`,
              section: 'site_rules',
              operation: 'replace',
              proposed: { site_rules: { text: `Rules to ${verb}` } },
            },
          },
        },
      },
    );
    expect(proposed.status, proposed.text).toBe(200);
    const decided = await watched(api, org).request(
      'POST',
      `/v3/construction-phase-plan-proposed-changes/${proposed.body.data?.id}/${verb}`,
      {
        token: every.dutyHolders.principalContractor,
        body: {
          data: {
            type: 'construction-phase-plan-proposed-changes',
            attributes: { decision_reason: `${verb}ed at the site meeting` },
          },
        },
      },
    );
    expect(decided.status, decided.text).toBe(200);
  }
  await sendId('endAppointment');
  const csv = 'reference,name\nTW-U1,Upload one\n';
  const checksum = createHash('sha256').update(csv).digest('base64');
  const declared = await watched(api, org).request('POST', `/v3/orgs/${org}/governance/location-imports`, {
    token,
    body: {
      data: {
        type: 'location-imports',
        attributes: { upload: { size: csv.length, content_type: 'text/csv', checksum }, file_name: 's.csv' },
      },
    },
  });
  const { url, method, headers } = declared.body.data.meta.upload;
  expect((await fetch(url, { method, headers, body: csv })).status).toBe(200);
  await sendId('processLocationImport', { location_import_id: declared.body.data.id });
  // Every delete, children before parents (the route table lists parents first), again while any
  // succeeds (a role is free once its groups are gone), then every restore of what was deleted. Each
  // must succeed once (below); a refused one (a record in use, or gone with one deleted before it) must
  // change nothing.
  // A job role goes once nobody holds it, an invitation is revoked once resent.
  await watched(api, org).request('PATCH', `/v3/users/${every.ids.user_id}`, {
    token,
    body: { data: { type: 'users', id: every.ids.user_id, relationships: { job_role: { data: null } } } },
  });
  await sendId('revokeInvitation');
  // The person moves through every status and back: active → suspended → deactivated → active.
  for (const verb of ['suspendUser', 'deactivateUser', 'reactivateUser']) await sendId(verb);
  // An award is deleted only while pending or rejected, a type only once no award or specification names
  // it: the builder's award is revoked; another is recorded, rejected and deleted; a type made for it goes.
  await sendId('revokeQualificationAward');
  const mistaken = await sendId('createQualificationAward');
  await sendId('rejectQualificationAward', { qualification_award_id: mistaken.body.data.id });
  await sendId('deleteQualificationAward', { qualification_award_id: mistaken.body.data.id });
  const unused = await sendId('createQualificationType');
  await sendId('deleteQualificationType', { qualification_type_id: unused.body.data.id });
  // An action through every move (issue 45): blocked and unblocked, handed to a team, claimed and
  // released, its evidence (a comment) given, sent back once and verified, then reopened, refused and
  // cancelled; another, of a type needing no verification, completed.
  for (const verb of ['blockAction', 'unblockAction', 'reassignAction']) {
    const moved = await sendId(verb);
    expect(moved.status, `${verb}: ${moved.text}`).toBe(200);
  }
  // Only a person claims (the builder's service account cannot): the signed-in admin, by session.
  for (const verb of ['claim', 'release']) {
    const moved = await watched(api, org).request('POST', `/v3/actions/${every.ids.action_id}/${verb}`, {
      headers: { 'x-session-token': every.session },
    });
    expect(moved.status, `${verb}: ${moved.text}`).toBe(200);
  }
  const evidence = await watched(api, org).request('POST', `/v3/orgs/${org}/comments`, {
    token,
    body: {
      data: {
        type: 'comments',
        attributes: { body: 'Stone replaced.', subject: { type: 'actions', id: every.ids.action_id } },
      },
    },
  });
  expect(evidence.status, evidence.text).toBe(201);
  for (const verb of [
    'requestVerificationAction',
    'sendBackAction',
    'requestVerificationAction',
    'verifyAction',
    'reopenAction',
    'cantDoAction',
    'reopenAction',
    'cancelAction',
  ]) {
    const moved = await sendId(verb);
    expect(moved.status, `${verb}: ${moved.text}`).toBe(200);
  }
  const plainType = await watched(api, org).request('POST', `/v3/orgs/${org}/action-types`, {
    token,
    body: { data: { type: 'action-types', attributes: { name: 'Tidy up' } } },
  });
  expect(plainType.status, plainType.text).toBe(201);
  const plain = await watched(api, org).request('POST', `/v3/orgs/${org}/actions`, {
    token,
    body: {
      data: {
        type: 'actions',
        attributes: { title: 'Sweep the compound' },
        relationships: { action_type: { data: { type: 'action-types', id: plainType.body.data.id } } },
      },
    },
  });
  expect(plain.status, plain.text).toBe(201);
  for (const verb of ['startAction', 'completeAction']) {
    const moved = await sendId(verb, { action_id: plain.body.data.id });
    expect(moved.status, `${verb}: ${moved.text}`).toBe(200);
  }
  // A user logs out (a session of their own: the builder's is used below).
  await watched(api, org).request('POST', '/v3/sessions/current/logout', {
    headers: { 'x-session-token': (await startSession(sessionPrincipal(every.session) ?? '')).token },
  });
  for (let progress = true; progress; ) {
    const before = succeeded.size;
    for (const route of routes.filter((r) => r.method === 'DELETE' && !succeeded.has(r.id)).reverse())
      await send(route);
    progress = succeeded.size > before;
  }
  for (const route of routes.filter((r) => r.id.startsWith('restore'))) await send(route);
}, 300_000);
afterAll(async () => {
  await workers?.stop();
  await api.close();
});

describe('issue 18, item 1: every write route emits exactly its events, in the same transaction', () => {
  it('the walk sends every write route, and each succeeds at least once (bar the token endpoint: no record)', () => {
    const writes = routes.filter((r) => r.method !== 'GET' && r.auth.length > 0).map((r) => r.id);
    expect(writes.filter((id) => !succeeded.has(id))).toEqual([]);
    expect(steps.filter((s) => s.status < 300).length).toBeGreaterThan(120);
  });

  it('each record a write created, changed or removed has exactly one event of that action', () => {
    const problems: string[] = [];
    for (const step of steps) {
      for (const [id, change] of step.changes) {
        const own = step.events.filter((e) => `${e.subject.type}/${e.subject.id}` === id);
        if (own.length === 0 && change.kind === 'changed' && isUpkeep(change, step)) continue;
        // The spec: the bulk location import emits no per-row events; its import record's event is all.
        if (own.length === 0 && id.startsWith('locations/') && /LocationImport$/.test(step.what)) continue;
        if (own.length !== 1) {
          problems.push(`${step.what}: ${change.kind} ${id} has ${own.length} events`);
          continue;
        }
        const [event] = own as [StoredEvent];
        const action = event.event.slice(event.event.lastIndexOf('.') + 1);
        const domain = !(LIFECYCLE_ACTIONS as readonly string[]).includes(action);
        const expected =
          change.kind === 'created'
            ? ['created', 'restored']
            : change.kind === 'removed'
              ? ['deleted']
              : ['updated'];
        if (!expected.includes(action) && !(domain && change.kind === 'changed'))
          problems.push(`${step.what}: ${change.kind} ${id} has event ${event.event}`);
        if (change.after) {
          const { type, id: recordId, attributes } = change.after;
          const data = event.data as { type?: string; id?: string; attributes?: unknown; links?: unknown };
          if (
            data.type !== type ||
            data.id !== recordId ||
            canonical(data.attributes) !== canonical(attributes)
          )
            problems.push(`${step.what}: ${event.event} does not carry ${id} as it became`);
          if (data.links !== undefined) problems.push(`${step.what}: ${event.event} carries links`);
        } else {
          expect(event.data).toEqual({ type: event.subject.type, id: event.subject.id });
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('no event names a record the write did not change (bar a rate code’s new version, kept beside it)', () => {
    const stray = steps.flatMap((step) =>
      step.events
        .filter((e) => !step.changes.has(`${e.subject.type}/${e.subject.id}`))
        .map((e) => `${step.what}: ${e.event} ${e.subject.id}`),
    );
    expect(stray.filter((s) => !s.includes('rate-code.version-added'))).toEqual([]);
    expect(stray.filter((s) => s.includes('rate-code.version-added'))).toHaveLength(1);
  });

  it('a refused write (409, 400, 404) changed nothing and left no event', () => {
    const refused = steps.filter((s) => s.status >= 400);
    for (const step of refused)
      expect({ what: step.what, touched: step.touched }).toEqual({ what: step.what, touched: 0 });
  });

  it('events say who acted: the caller for API writes, Street Manager for its messages', () => {
    const events = steps.flatMap((s) => s.events.map((e) => ({ what: s.what, actor: e.actor })));
    const bySns = events.filter((e) => e.what === 'street-works notification');
    expect(bySns.length).toBeGreaterThan(0);
    expect(new Set(bySns.map((e) => `${e.actor.kind}:${e.actor.id}`))).toEqual(
      new Set(['system:street-manager']),
    );
    const byApi = events.filter((e) => e.what !== 'street-works notification');
    const actors = new Set(byApi.map((e) => `${e.actor.kind}:${e.actor.id}`));
    // The admin's client, and the CDM walk-through's duty holders (signed-in users).
    expect(actors.has(`service-account:${adminId}`)).toBe(true);
    expect([...actors].every((a) => a.startsWith('service-account:') || a.startsWith('user:'))).toBe(true);
  });

  it('domain actions are named: vehicle.allocated, construction-phase-plan.handed-over, proposed-change.accepted', () => {
    const names = new Set(steps.flatMap((s) => s.events.map((e) => e.event)));
    for (const name of [
      'vehicle.allocated',
      'construction-phase-plan.handed-over',
      'proposed-change.accepted',
      'appointment.ended',
      'hazard-proposal.accepted',
      'document-version.completed',
      'device-backup.completed',
      'scheme.restored',
      'rate-code.version-added',
    ])
      expect(names, name).toContain(name);
  });
});

describe('issue 18, item 3: the change feed', () => {
  const feed = (query = '', who = token) => api.get(`/v3/orgs/${tenant.org.id}/events${query}`, who);

  /** Every page from the start, following `links.next` until a page comes back empty. */
  const readAll = async (query: string, who = token) => {
    const seen: { id: string; attributes: { name: string; subject: { type: string; id: string } } }[] = [];
    let res = await feed(query, who);
    for (let pages = 0; pages < 500; pages++) {
      expect(res.status, res.text).toBe(200);
      if (res.body.data.length === 0) return seen;
      seen.push(...res.body.data);
      const next = new URL(res.body.links.next);
      res = await api.get(`${next.pathname}${next.search}`, who);
    }
    throw new Error('The feed did not end');
  };

  it('serves every event of the organisation in order, deletions included, page by page', async () => {
    const stored = steps.flatMap((s) => s.events).map((e) => e.id);
    const all = await vi.waitFor(
      async () => {
        const read = await readAll('?page[limit]=50');
        expect(read.map((e) => e.id)).toEqual(expect.arrayContaining(stored));
        return read;
      },
      { timeout: 10_000, interval: 500 },
    );
    const ids = all.map((e) => e.id);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    expect(all.some((e) => e.attributes.name.endsWith('.deleted'))).toBe(true);
  });

  it('filter[type] and filter[subject_id] narrow it; the cursor resumes after an event', async () => {
    const allocated = await readAll('?filter[type]=vehicle.allocated');
    expect(allocated.length).toBe(4);
    expect(new Set(allocated.map((e) => e.attributes.subject.id))).toEqual(new Set([every.ids.vehicle_id]));
    const ofVehicle = await readAll(`?filter[subject_id]=${every.ids.vehicle_id}&page[limit]=3`);
    expect(ofVehicle.map((e) => e.attributes.name)).toEqual([
      'vehicle.created',
      'vehicle.updated',
      'vehicle.allocated',
      'vehicle.allocated',
      'vehicle.allocated',
      'vehicle.allocated',
      'vehicle.deleted',
    ]);
    const after = await readAll(`?filter[subject_id]=${every.ids.vehicle_id}&cursor=${ofVehicle[1]?.id}`);
    expect(after.map((e) => e.id)).toEqual(ofVehicle.slice(2).map((e) => e.id));
  });

  it('a caller sees only the events of records it may view; another organisation’s caller gets 404', async () => {
    const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/iam/roles`, {
      token,
      body: { data: { type: 'roles', attributes: { name: 'Fleet reader', permissions: ['assets:view'] } } },
    });
    expect(role.status, role.text).toBe(201);
    const reader = await createServiceAccountClient('fleet reader', [
      { org_id: tenant.org.id, role: role.body.data.id },
    ]);
    const seen = await readAll('?page[limit]=1000', await api.token(reader));
    const assetTypes = new Set(
      [...resourceTypes.values()].filter((d) => d.permission === 'assets').map((d) => d.type),
    );
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.filter((e) => !assetTypes.has(e.attributes.subject.type))).toEqual([]);
    const other = await newTenant('Events Other', 0);
    expect((await feed('', await api.token(other.admin))).status).toBe(404);
  });

  it('bad cursors, names and limits are 400 with the parameter named', async () => {
    for (const [query, parameter] of [
      ['?cursor=yesterday', 'cursor'],
      ['?filter[type]=vehicle.painted', 'filter[type]'],
      ['?filter[subject_id]=1', 'filter[subject_id]'],
      ['?page[limit]=0', 'page[limit]'],
      ['?page[limit]=1001', 'page[limit]'],
      ['?sort=-id', 'sort'],
    ]) {
      const res = await feed(query);
      expect(res.status, query).toBe(400);
      expect(res.body.errors[0].source, query).toEqual({ parameter });
    }
  });
});

describe('issue 18, item 7: audit entries for every write, derived from the events', () => {
  interface Entry {
    id: string;
    attributes: {
      action: string;
      subject: { type: string; id: string };
      actor: { kind: string; id: string };
      occurred_at: string;
    };
    relationships: Record<'actor_user' | 'actor_service_account', { data: { id: string } | null }>;
  }
  let entries: Map<string, Entry>;
  beforeAll(async () => {
    // The walk's large import is a job: its job.created event starts a worker, as in the stack.
    workers = await startJobWorkers();
    // What the stream does a few seconds after each write: hand the events to the consumers.
    await deliverEvents(tenant.org.id);
    entries = new Map();
    for (let offset = 0; ; offset += 100) {
      const page = await api.get(
        `/v3/orgs/${tenant.org.id}/audit-events?page[limit]=100&page[offset]=${offset}`,
        token,
      );
      expect(page.status, page.text).toBe(200);
      for (const entry of page.body.data as Entry[]) entries.set(entry.id, entry);
      if (page.body.data.length < 100) break;
    }
  }, 120_000);

  it('every event of the walk has its audit entry (same id, name, subject, actor and time)', () => {
    const events = steps.flatMap((s) => s.events);
    const problems = events.flatMap((e) => {
      const entry = entries.get(e.id);
      if (!entry) return [`${e.event} ${e.subject.id}: no audit entry`];
      const { action, subject, actor, occurred_at } = entry.attributes;
      const seen = { action, subject, actor, occurred_at };
      const wanted = { action: e.event, subject: e.subject, actor: e.actor, occurred_at: e.occurred_at };
      return canonical(seen) === canonical(wanted) ? [] : [`${e.event} ${e.subject.id}: ${canonical(seen)}`];
    });
    expect(events.length).toBeGreaterThan(150);
    expect(problems).toEqual([]);
  });

  it('every resource type that declares events is audited, whatever its area (bar those no route writes)', () => {
    const audited = new Set([...entries.values()].map((e) => e.attributes.subject.type));
    const declared = [...resourceTypes.values()].filter((d) => d.events !== false).map((d) => d.type);
    expect(declared.filter((type) => !audited.has(type)).sort()).toEqual(NOT_WRITTEN_BY_ROUTES);
    // Areas that had no audit entries before: assets beyond allocation, people, costs, street works.
    for (const type of ['equipment-manufacturers', 'teams', 'rate-codes', 'permits', 'webhook-subscriptions'])
      expect(audited, type).toContain(type);
  });

  it('who acted is shown as the event says: the caller’s relationship, or the service by name', () => {
    const bySns = steps.filter((s) => s.what === 'street-works notification').flatMap((s) => s.events);
    expect(bySns.length).toBeGreaterThan(0);
    for (const event of bySns)
      expect(entries.get(event.id)?.attributes.actor).toEqual({ kind: 'system', id: 'street-manager' });
    // The service acting on its own (Street Manager's messages, seed data) is named, not related.
    const bySystem = [...entries.values()].filter((e) => e.attributes.actor.kind === 'system');
    for (const entry of bySystem) {
      expect(entry.relationships.actor_user.data).toBeNull();
      expect(entry.relationships.actor_service_account.data).toBeNull();
    }
    const byAdmin = [...entries.values()].filter((e) => e.attributes.actor.id === adminId);
    expect(byAdmin.length).toBeGreaterThan(100);
    for (const entry of byAdmin) expect(entry.relationships.actor_service_account.data?.id).toBe(adminId);
  });

  it('the bulk location import has its import-level entries and no per-row ones', () => {
    const imports = steps.filter((s) => /LocationImport$/.test(s.what) && s.status < 300);
    const rows = imports.flatMap((s) => [...s.changes.keys()].filter((id) => id.startsWith('locations/')));
    expect(rows.length).toBeGreaterThan(0);
    const audited = new Set(
      [...entries.values()].map((e) => `${e.attributes.subject.type}/${e.attributes.subject.id}`),
    );
    expect(rows.filter((id) => audited.has(id))).toEqual([]);
    // Each import's entries are about the import record, or (a file too large for its request) its job.
    const subjects = imports.flatMap((s) => s.events.map((e) => entries.get(e.id)?.attributes.subject.type));
    expect([...new Set(subjects)].sort()).toEqual(['jobs', 'location-imports']);
  });
});
