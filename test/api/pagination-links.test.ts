/**
 * Issue 17, item 5: every collection carries top-level `links` (`self`, `first`, `prev`, `next`, `last`)
 * derived from the request's own URL, so a generic JSON:API client pages with them. Walked over every GET
 * collection route of the route table (as in collection-features.test.ts), against one real record of
 * every kind (test/support/every-record.ts) and a few more, with a page size that makes several pages:
 * following `next` from the first page until it is null visits every record exactly once, in the
 * collection's order; following `prev` from `last` walks the same pages back; every link keeps the
 * caller's filters, sort and include; the caller's paging form is kept; a page beyond the end leads back.
 *
 * test/support/api.ts checks the same links on every response of every API test file, and follows them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRecord, grantWrites } from '#functions/iam/grant-writes';
import { writeEnvelopes } from '#functions/notifications/envelopes';
import { streets } from '#functions/places/definitions';
import { scopeOf } from '#shared/data/scope';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { type Route, routes } from '#shared/routes';
import { createFeatureConfiguration, createOrganisation } from '../../infra/local/records';
import { runCdmScenario } from '../scenarios/cdm';
import { startTestApi, type TestApi } from '../support/api';
import { consume, latestEvent, streamRecordOf } from '../support/event-stream';
import {
  BODILESS,
  buildEveryRecord,
  deliverStreetWorksEvent,
  type EveryRecord,
  largeLocationImport,
  requestBodies,
} from '../support/every-record';
import { STREET_WORKS_ORGS } from '../support/street-works-config';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
let every: EveryRecord;
/** Path parameters the walk takes from elsewhere than `every` (the second CDM scenario's pack and plan). */
const walkIds: Record<string, string> = {};

/** GET routes answering a collection (a declared list, or a bespoke route whose answer is one). */
const collectionRoutes = routes.filter(
  (r: Route) =>
    r.method === 'GET' &&
    r.query === undefined &&
    (r.declared ? r.declared.operation === 'list' : r.answers?.collection !== undefined),
);

/**
 * Collections that list their own query parameters (the inbox, the event feed): the walks above page
 * counted wholes as a service account, so these are walked below by the parameters they list, each as
 * its own caller. A new one fails the walk until it says who calls it.
 */
const ownQueryRoutes = routes.filter(
  (r: Route) => r.method === 'GET' && r.query !== undefined && r.answers?.collection !== undefined,
);

/** Query parameters a route needs before it answers a collection (with records in it) at all. */
const required: Record<string, (ids: EveryRecord['ids']) => string[]> = {
  searchProjects: () => ['filter[prefix]=Ex'],
  listComments: (i) => [`filter[subject_id]=${i.contact_id}`],
  evaluateQualificationSpecification: (i) => [`filter[person]=${i.person},${i.colleague}`],
  listCostRollups: (i) => [
    `filter=and(eq(organisation,${i.org_id}),eq(cost_centre,${i.scheme_id}),eq(cost_centre_type,schemes),eq(depth,all))`,
  ],
};

const PAGING = new Set(['page[limit]', 'page[offset]', 'limit', 'offset']);
/** A link's query without its paging parameters, decoded: what every link of a walk must keep. */
const keptOf = (link: string) =>
  [...new URL(link).searchParams].filter(([name]) => !PAGING.has(name)).map(([n, v]) => `${n}=${v}`);
const pagingOf = (link: string) =>
  Object.fromEntries([...new URL(link).searchParams].filter(([name]) => PAGING.has(name)));
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

beforeAll(async () => {
  api = await startTestApi();
  // The organisation street-works references route to (test configuration), for its permits.
  tenant = await newTenant('Links Org', 2, STREET_WORKS_ORGS.TW);
  token = await api.token(tenant.admin);
  every = await buildEveryRecord(api, tenant, { token, reference: 'TW' });
  await addSecondRecords();
}, 240_000);

const idFor = (route: Route, name: string) => walkIds[name] ?? every.idFor(route, name);
const firstPath = (route: Route) => {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => idFor(route, name));
  return { path, query: required[route.id]?.(every.ids) ?? [] };
};
const withQuery = (path: string, query: string[]) => (query.length > 0 ? `${path}?${query.join('&')}` : path);

/** Bodies that cannot simply be sent twice. */
const bodiesAgain: Record<string, (ids: EveryRecord['ids']) => object> = {
  // A site has one settings record: the second is the scheme's.
  createSiteSetting: (i) => ({
    data: {
      type: 'site-settings',
      attributes: { closing_time: '17:00' },
      relationships: { scheme: { data: { type: 'schemes', id: i.scheme_id } } },
    },
  }),
  // A visitor, not checked at the gate (the builder's person is on site already).
  createSiteAttendance: (i) => ({
    data: {
      type: 'site-attendances',
      attributes: { method_in: 'manual', attendee_kind: 'visitor', guest: { name: 'Ann Inspector' } },
      relationships: { location: { data: { type: 'locations', id: i.location_id } } },
    },
  }),
  // Rate versions follow one another: the second starts after the first.
  createRateCodeVersion: (i) => {
    const body = requestBodies.createRateCodeVersion?.(i) as { data: { attributes: object } };
    return {
      data: { ...body.data, attributes: { ...body.data.attributes, valid_from: '2026-07-01T00:00:00Z' } },
    };
  },
};

/**
 * A second record in every collection that holds fewer than two, so that every walk has pages to walk:
 * what no route creates the way the seed data and the SNS receiver do; the rest by sending the create
 * route of the collection's type again (values unique per organisation under another reference).
 */
const addSecondRecords = async () => {
  const org = tenant.org.id;
  // A second scheme, pack and plan; its pack gets a second hazard proposal from an appointed designer
  // (the administrator holds no duty-holder role), and the walk reads the pack's and the plan's lists.
  const cdm = await runCdmScenario(api, org, token);
  Object.assign(walkIds, {
    pre_construction_information_id: cdm.packId,
    construction_phase_plan_id: cdm.planId,
  });
  const proposal = await api.request(
    'POST',
    `/v3/pre-construction-information/${cdm.packId}/hazard-proposals`,
    {
      token: cdm.tokens.designer,
      body: requestBodies.createHazardProposal?.(every.ids) ?? {},
    },
  );
  expect(proposal.status, proposal.text).toBe(201);
  await createFeatureConfiguration(org, { name: 'PCI', domain: 'cdm', component: 'pci', enabled: true });
  const street = newRecord(streets, org, {
    attributes: { name: 'Low Street', usrn: '20100124', town: 'Kendal' },
  });
  await commit(scopeOf([org]), [{ create: street }]);
  await deliverStreetWorksEvent(org, 'PERMIT_GRANTED', 'PERMIT', 'TW-P-2');
  await deliverStreetWorksEvent(org, 'ACTIVITY_CREATED', 'ACTIVITY', 'TW-A-2');
  const other = await createOrganisation({
    name: 'Links Other',
    slug: `links-other-${Date.now()}`,
    description: 'A second organisation.',
  });
  // A grant in another organisation stands for a bridge (as in createServiceAccountClient).
  const bridged = grantRecord(other.id, { role: 'viewer', service_account: tenant.admin.principalId });
  await commit(scopeOf([other.id]), grantWrites(bridged));
  const again: Record<string, string> = { ...every.ids, reference: 'TW2' };
  // A device backup answers an open request: the second backup needs a second request.
  const request = await api.request('POST', `/v3/orgs/${org}/device-backup-requests`, {
    token,
    body: requestBodies.createDeviceBackupRequest?.(again) ?? {},
  });
  expect(request.status, request.text).toBe(201);
  again.device_backup_request_id = request.body.data.id;
  // A job has no POST of its own: a second import too large for its request makes the second.
  const job = await api.request('POST', `/v3/orgs/${org}/governance/location-imports`, {
    token,
    body: largeLocationImport('J2'),
  });
  expect(job.status, job.text).toBe(202);
  // A second webhook delivery: another event the builder's subscription takes, as the stream hands it over.
  const maker = await api.request('POST', `/v3/orgs/${org}/assets/equipment-manufacturers`, {
    token,
    body: requestBodies.createEquipmentManufacturer?.(again) ?? {},
  });
  expect(maker.status, maker.text).toBe(201);
  await consume(streamRecordOf(await latestEvent(org, 'equipment-manufacturer.created', maker.body.data.id)));
  for (const route of collectionRoutes) {
    const { path, query } = firstPath(route);
    const res = await api.get(withQuery(path, query), token);
    if (res.body.meta.pagination.counts.resources >= 2) continue;
    const type = res.body.data[0]?.type;
    const create = routes.find(
      (r) =>
        r.method === 'POST' &&
        (r.path === route.path ||
          (type !== undefined &&
            (requestBodies[r.id]?.(again) as { data?: { type?: string } })?.data?.type === type)),
    );
    if (!create) throw new Error(`${route.id}: no way to make a second record; add one here`);
    const target = create.path.replace(/\{(\w+)\}/g, (_, name: string) => idFor(create, name));
    const body = BODILESS.has(create.id)
      ? undefined
      : (bodiesAgain[create.id] ?? requestBodies[create.id])?.(again);
    const made = await api.request('POST', target, { token, ...(body && { body }) });
    expect(made.status, `${create.id}: ${made.text}`).toBe(201);
  }
};
afterAll(() => api.close());

describe('pagination links on every collection route', () => {
  it('the walk covers the collection routes of the route table', () => {
    expect(collectionRoutes.length).toBeGreaterThanOrEqual(58);
  });

  it.each(collectionRoutes.map((r) => [r.id, r] as const))(
    '%s: next from first visits every record once, prev walks back, each link keeps filters, sort and include',
    async (_, route) => {
      const { path, query } = firstPath(route);
      const plainList = await api.get(withQuery(path, query), token);
      expect(plainList.status, plainList.text).toBe(200);
      const { params } = plainList.body.meta.features;
      // The caller's own parameters: a filter that keeps every record (a creation time since 2000), a
      // sort and an include, where the endpoint has them.
      const since = (params.filter.options as string[]).includes('created_at.since');
      const sort = params.sort.options[0] as string | undefined;
      const include = params.include.options[0] as string | undefined;
      const own = [
        ...query,
        ...(since ? ['filter[created_at.since]=2000-01-01T00:00:00Z'] : []),
        ...(sort ? [`sort=-${sort}`] : []),
        ...(include ? [`include=${include}`] : []),
      ];
      // At most 100 records answer in one page: the collection's order, to compare the walk with.
      const whole = await api.get(withQuery(path, [...own, 'page[limit]=100']), token);
      const total: number = whole.body.meta.pagination.counts.resources;
      expect(
        total,
        `${route.id}: two records at least, so that there are pages to walk`,
      ).toBeGreaterThanOrEqual(2);
      const expected = (whole.body.data as { id: string }[]).map((r) => r.id);
      // About three pages, so that first, a middle page and last differ.
      const limit = Math.max(1, Math.ceil(total / 3));

      const forward: string[] = [];
      const seen: string[] = [];
      let first: string | undefined;
      let last: string | undefined;
      // A client asks for a page size, then pages from the first page.
      const asked = await api.get(withQuery(path, [...own, `page[limit]=${limit}`]), token);
      expect(asked.status, asked.text).toBe(200);
      let link: string | null = asked.body.links.first;
      while (link !== null) {
        expect(forward.length, `${route.id}: next never ends`).toBeLessThanOrEqual(total + 1);
        const page = await api.get(pathOf(link), token);
        expect(page.status, page.text).toBe(200);
        const { links } = page.body;
        forward.push(links.self);
        seen.push(...(page.body.data as { id: string }[]).map((r) => r.id));
        // Every link keeps what the caller sent besides the page, in its order.
        for (const name of ['self', 'first', 'prev', 'next', 'last'] as const) {
          if (links[name] !== null) expect(keptOf(links[name]), `${route.id}: links.${name}`).toEqual(own);
        }
        expect(pagingOf(links.first)).toEqual({ 'page[limit]': String(limit), 'page[offset]': '0' });
        first ??= links.first;
        last ??= links.last;
        expect(links.first).toBe(first);
        expect(links.last).toBe(last);
        link = links.next;
      }
      expect(new Set(seen).size, `${route.id}: a record seen twice`).toBe(seen.length);
      expect(seen.length, `${route.id}: records visited`).toBe(total);
      if (total <= 100) expect(seen).toEqual(expected);
      expect(forward).toHaveLength(Math.max(1, Math.ceil(total / limit)));
      expect(forward.at(-1)).toBe(last);

      const back: string[] = [];
      for (let at: string | null = last ?? null; at !== null; ) {
        expect(back.length, `${route.id}: prev never ends`).toBeLessThanOrEqual(forward.length);
        const page = await api.get(pathOf(at), token);
        back.push(page.body.links.self);
        at = page.body.links.prev;
      }
      expect(back).toEqual([...forward].reverse());

      // A caller paging with limit/offset gets links in that form.
      const plain = await api.get(withQuery(path, [...query, `limit=${limit}`]), token);
      expect(pagingOf(plain.body.links.last)).toEqual({
        limit: String(limit),
        offset: pagingOf(last ?? '')['page[offset]'],
      });

      // Beyond the end: an empty page whose prev leads back to the last page, and no next.
      const beyond = await api.get(
        withQuery(path, [...own, `page[limit]=${limit}`, `page[offset]=${total + 2 * limit}`]),
        token,
      );
      expect(beyond.body.data).toEqual([]);
      expect(beyond.body.links).toMatchObject({ prev: last, next: null, first, last });
    },
  );

  // Roll-ups answer one computed, bounded list in a fixed order: they page by offset only.
  const byCursor = collectionRoutes.filter((r) => r.id !== 'listCostRollups');

  it.each(byCursor.map((r) => [r.id, r] as const))(
    '%s: page[cursor] from empty, then links.next, visits every record once in the collection order (issue 19, item 3)',
    async (_, route) => {
      const { path, query } = firstPath(route);
      const features = (await api.get(withQuery(path, query), token)).body.meta.features.params;
      const sort = features.sort.options[0] as string | undefined;
      const own = [...query, ...(sort ? [`sort=-${sort}`] : [])];
      const whole = await api.get(withQuery(path, [...own, 'page[limit]=100']), token);
      const expected = (whole.body.data as { id: string }[]).map((r) => r.id);
      const total: number = whole.body.meta.pagination.counts.resources;
      expect(total, `${route.id}: records to walk`).toBeGreaterThanOrEqual(2);
      const limit = Math.max(1, Math.ceil(total / 3));
      const seen: string[] = [];
      let link: string | null =
        `${api.url}${withQuery(path, [...own, `page[limit]=${limit}`, 'page[cursor]='])}`;
      while (link !== null) {
        expect(seen.length, `${route.id}: next never ends`).toBeLessThanOrEqual(total);
        const page = await api.get(pathOf(link), token);
        expect(page.status, page.text).toBe(200);
        seen.push(...(page.body.data as { id: string }[]).map((r) => r.id));
        for (const name of ['self', 'first', 'next'] as const) {
          const kept =
            page.body.links[name] &&
            keptOf(page.body.links[name]).filter((p) => !p.startsWith('page[cursor]'));
          if (kept) expect(kept, `${route.id}: links.${name}`).toEqual(own);
        }
        link = page.body.links.next;
      }
      expect(new Set(seen).size, `${route.id}: a record seen twice`).toBe(seen.length);
      expect(seen.length, `${route.id}: records visited`).toBe(total);
      if (total <= 100) expect(seen).toEqual(expected);
    },
  );
});

describe('collections that list their own query parameters', () => {
  /** Who reads each, and records enough for three pages: the inbox is its signed-in user's own. */
  const callers: Record<string, () => Promise<{ headers: Record<string, string>; path: string }>> = {
    listNotifications: async () => {
      await writeEnvelopes(
        ['one', 'two', 'three', 'four'].map((title) => ({
          recipient: every.ids.colleague ?? '',
          org_id: tenant.org.id,
          event: { id: randomUUID(), name: 'invitation.accepted' },
          subject: { type: 'invitations', id: randomUUID() },
          actor: null,
          category: 'people',
          severity: 'info',
          title,
          body: 'Someone you invited has joined.',
          link: null,
          requires_ack: false,
          channels: { email: false },
        })),
      );
      return { headers: { 'x-session-token': every.session }, path: '/v3/notifications' };
    },
    listNotificationAcknowledgements: async () => {
      // One acknowledgement-required event told to four people: its recipients are the list.
      const event = { id: randomUUID(), name: 'notice.created' };
      await writeEnvelopes(
        [1, 2, 3, 4].map(() => ({
          recipient: randomUUID(),
          org_id: tenant.org.id,
          event,
          subject: { type: 'notices', id: randomUUID() },
          actor: null,
          category: 'safety',
          severity: 'critical',
          title: 'Stop work',
          body: 'All lifting stops.',
          link: null,
          requires_ack: true,
          channels: { email: false },
        })),
      );
      return {
        headers: { authorization: `Bearer ${token}` },
        path: `/v3/orgs/${tenant.org.id}/notification-acknowledgements?filter[event]=${event.id}`,
      };
    },
    listEvents: async () => ({
      headers: { authorization: `Bearer ${token}` },
      path: `/v3/orgs/${tenant.org.id}/events`,
    }),
  };

  it('the walk covers the inbox, and every such collection has a caller here', () => {
    expect(ownQueryRoutes.map((r) => r.id)).toContain('listNotifications');
    for (const route of ownQueryRoutes) expect(Object.keys(callers), route.id).toContain(route.id);
  });

  it.each(ownQueryRoutes.map((r) => [r.id, r] as const))(
    '%s: by the parameters it lists, links.next from the first page visits every record once in order; offset links where it pages by offset; what it does not list is refused',
    async (_, route) => {
      const { headers, path } = await (callers[route.id] ?? (() => Promise.reject(new Error(route.id))))();
      const own = route.query ?? [];
      const read = async (link: string) => {
        const res = await api.request('GET', link.startsWith('http') ? pathOf(link) : link, { headers });
        expect(res.status, `${link}: ${res.text}`).toBe(200);
        return res.body as { data: { id: string }[]; links: Record<string, string | null> };
      };
      expect(own, `${route.id} pages by a page size`).toContain('page[limit]');
      const whole = await read(`${path}${path.includes('?') ? '&' : '?'}page[limit]=100`);
      const expected = whole.data.map((r) => r.id);
      expect(expected.length, `${route.id}: records to walk`).toBeGreaterThanOrEqual(3);
      const limit = Math.ceil(Math.min(expected.length, 100) / 3);
      const walk = async (start: string) => {
        const seen: string[] = [];
        const complete = whole.links.next === null || whole.links.next === undefined;
        // A feed longer than the whole read is compared over its first records only.
        for (
          let link: string | null = start;
          link !== null && (complete || seen.length < expected.length);
        ) {
          expect(seen.length, `${route.id}: next never ends`).toBeLessThanOrEqual(expected.length + limit);
          const page = await read(link);
          if (process.env.WALK_DEBUG)
            console.log(
              link,
              page.data.map((r) => r.id),
              page.links,
            );
          seen.push(...page.data.map((r) => r.id));
          link = page.links.next ?? null;
        }
        expect(new Set(seen).size, `${route.id}: a record seen twice`).toBe(seen.length);
        if (complete) expect(seen).toEqual(expected);
        else expect(seen.slice(0, expected.length)).toEqual(expected);
      };
      const cursor = own.find((name) => name === 'page[cursor]' || name === 'cursor');
      expect(cursor ?? own.find((name) => name === 'page[offset]'), `${route.id} pages`).toBeDefined();
      const join = path.includes('?') ? '&' : '?';
      // From an empty cursor where the list takes one; an id cursor (the event feed) starts from none.
      if (cursor)
        await walk(`${path}${join}page[limit]=${limit}${cursor === 'page[cursor]' ? '&page[cursor]=' : ''}`);
      if (own.includes('page[offset]')) {
        const first = await read(`${path}${join}page[limit]=${limit}&page[offset]=0`);
        expect(first.links.first, `${route.id}: offset pages link their first page`).toBeTruthy();
        await walk(`${path}${join}page[limit]=${limit}&page[offset]=0`);
      }
      if (!own.includes('include')) {
        const res = await api.request('GET', `${path}${path.includes('?') ? '&' : '?'}include=anything`, {
          headers,
        });
        expect(res.status, `${route.id} lists no include: ${res.text}`).toBe(400);
      }
    },
  );
});

describe('pagination links at the edges', () => {
  const teams = () => `/v3/orgs/${tenant.org.id}/people/teams`;

  it('an empty collection: first and last are offset 0, prev and next are null', async () => {
    const res = await api.get(`${teams()}?filter[name]=nothing-matches&page[limit]=5`, token);
    expect(res.body.data).toEqual([]);
    expect(res.body.links).toMatchObject({ prev: null, next: null });
    expect(pagingOf(res.body.links.first)).toEqual({ 'page[limit]': '5', 'page[offset]': '0' });
    expect(res.body.links.last).toBe(res.body.links.first);
  });

  it('a request without paging parameters: self is the request, the others name the default page size', async () => {
    const res = await api.get(`${teams()}?sort=name`, token);
    expect(res.body.links.self).toBe(`${api.url}${teams()}?sort=name`);
    expect(pagingOf(res.body.links.first)).toEqual({ 'page[limit]': '25', 'page[offset]': '0' });
  });

  it('links are absolute URLs on the host the request came in on, their brackets percent-encoded', async () => {
    const res = await api.get(`${teams()}?filter[name]=Isolation crew&page[limit]=1`, token);
    expect(res.body.links.first).toBe(
      `${api.url}${teams()}?filter%5Bname%5D=Isolation+crew&page%5Blimit%5D=1&page%5Boffset%5D=0`,
    );
  });
});

describe('top-level links.self on single-resource documents', () => {
  it('a GET: the request URL, include and all', async () => {
    const path = `/v3/orgs/${tenant.org.id}/people/teams/${every.ids.team_id}?include=members`;
    const res = await api.get(path, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.links).toEqual({ self: `${api.url}${path}` });
  });

  it('a create (201): the record’s own URL, as Location and data.links.self', async () => {
    const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/people/job-roles`, {
      token,
      body: { data: { type: 'job-roles', attributes: { name: 'Banksman', code: 'LINKS-BANK' } } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.links).toEqual({ self: res.headers.get('location') });
    expect(res.body.links.self).toBe(res.body.data.links.self);
  });

  it('an update (PATCH) and an action (POST …/restore): the record’s own URL, which a GET answers', async () => {
    const scheme = `/v3/orgs/${tenant.org.id}/projects/schemes/${every.ids.scheme_id}`;
    const patched = await api.request('PATCH', scheme, {
      token,
      body: { data: { type: 'schemes', id: every.ids.scheme_id, attributes: { description: 'Links' } } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.links).toEqual({ self: `${api.url}${scheme}` });
    const operation = `/v3/orgs/${tenant.org.id}/projects/operations/${every.ids.operation_id}`;
    expect((await api.request('DELETE', operation, { token })).status).toBe(204);
    const restored = await api.request('POST', `${operation}/restore`, { token });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.links).toEqual({ self: `${api.url}${operation}` });
  });
});
