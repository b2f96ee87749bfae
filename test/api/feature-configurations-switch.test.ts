/**
 * Issue 41, item 5: feature configurations that can be switched. The catalogue is one feature per area
 * whose manifest declares one; an organisation switches one with PATCH /v3/feature-configurations/{id}
 * (`feature-configurations:manage`); while it is off the area's routes answer 403 `FEATURE.001` naming it,
 * except reads by whoever may switch it back on, its due work waits and its consumers pass events by, in
 * that organisation only.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDueWork } from '#functions/due-work/run';
import { consumeWith } from '#functions/events/consume-batch';
import { updateConfiguration } from '#functions/feature-configurations/configuration-writes';
import { unstoredSwitchWithId } from '#functions/feature-configurations/switches';
import { dueEntry, dueEntryOp, removeDueEntryOp } from '#shared/data/due-work';
import { eventPartition, type StoredEvent } from '#shared/data/events';
import {
  FEATURE_ADMINISTRATION,
  featureConfigurationIdOf,
  featureSwitchKey,
} from '#shared/data/feature-switches';
import { scopeOf } from '#shared/data/scope';
import { commit } from '#shared/data/transaction';
import { type DueWork, type DueWorkKind, dueWorkKind } from '#shared/engine/due-work-kind';
import { runDueWork } from '#shared/engine/due-work-runner';
import { featureAhead } from '#shared/http/middlewares/authorisation';
import { entityTagOf } from '#shared/http/preconditions';
import { featureCatalogue, routes } from '#shared/routes';
import { type ClientCredentials, createServiceAccountClient } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { latestEvent, streamRecordOf } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let a: Tenant;
let b: Tenant;
/** An organisation whose switches nobody has changed: none of them is stored. */
let c: Tenant;
/** Holds `costs:view` and `costs:manage` in A, and nothing that may switch features. */
let writer: ClientCredentials;

const rateCodes = (tenant: Tenant) => `/v3/orgs/${tenant.org.id}/costs/rate-codes`;
const switchOf = (tenant: Tenant, feature: string) =>
  `/v3/feature-configurations/${featureConfigurationIdOf(tenant.org.id, feature)}`;
const patchBody = (tenant: Tenant, feature: string, attributes: object) => ({
  data: { type: 'feature-configurations', id: featureConfigurationIdOf(tenant.org.id, feature), attributes },
});

const switchCosts = async (tenant: Tenant, enabled: boolean) => {
  const res = await api.request('PATCH', switchOf(tenant, 'costs'), {
    token: await api.token(tenant.admin),
    body: patchBody(tenant, 'costs', { enabled }),
  });
  expect(res.status, res.text).toBe(200);
  return res;
};

let codes = 0;
const createRateCode = async (tenant: Tenant, client: ClientCredentials) =>
  api.request('POST', rateCodes(tenant), {
    token: await api.token(client),
    body: {
      data: {
        type: 'rate-codes',
        attributes: { code: `SW-${++codes}`, name: 'Gang day', category: 'labour' },
      },
    },
  });

beforeAll(async () => {
  api = await startTestApi();
  [a, b, c] = await Promise.all([
    newTenant('Switches A', 0),
    newTenant('Switches B', 0),
    newTenant('Switches C', 0),
  ]);
  const role = await api.request('POST', `/v3/orgs/${a.org.id}/iam/roles`, {
    token: await api.token(a.admin),
    body: {
      data: { type: 'roles', attributes: { name: 'Estimator', permissions: ['costs:view', 'costs:manage'] } },
    },
  });
  expect(role.status, role.text).toBe(201);
  writer = await createServiceAccountClient('estimator', [{ org_id: a.org.id, role: role.body.data.id }]);
}, 60_000);
afterAll(() => api.close());

describe('the catalogue: one feature per area whose manifest declares one', () => {
  it('the areas the service cannot run without are not features; every route of a feature’s area names it', () => {
    const features = [...featureCatalogue.keys()];
    for (const core of ['auth', 'iam', 'organisations', 'people', 'feature-configurations', 'status'])
      expect(features).not.toContain(core);
    for (const core of ['specifications', 'events', 'audit', 'jobs']) expect(features).not.toContain(core);
    expect(features).toContain('costs');
    for (const route of routes)
      expect(route.feature, route.id).toBe(featureCatalogue.has(route.area) ? route.area : undefined);
  });

  it('each organisation’s switches are its feature configurations, listed with the others', async () => {
    const res = await api.get('/v3/feature-configurations?filter[component]=area', await api.token(a.viewer));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((f: { attributes: { domain: string } }) => f.attributes.domain).sort()).toEqual(
      [...featureCatalogue.keys()].sort(),
    );
    expect(res.body.data[0].attributes).toMatchObject({ component: 'area', enabled: true });
  });
});

describe('switches served before one is stored', () => {
  const areaSwitches = '/v3/feature-configurations?filter[component]=area';
  const domainsOf = (res: { body: { data: { attributes: { domain: string } }[] } }) =>
    res.body.data.map((f) => f.attributes.domain);

  it('an organisation nobody has switched lists one switch per catalogued feature, on, filtered, sorted and counted', async () => {
    const token = await api.token(c.viewer);
    const res = await api.get(`${areaSwitches}&sort=-domain&page[limit]=5`, token);
    expect(res.status, res.text).toBe(200);
    const catalogue = [...featureCatalogue.keys()].sort();
    expect(domainsOf(res)).toEqual([...catalogue].reverse().slice(0, 5));
    expect(res.body.meta.pagination.counts).toEqual({
      pages: Math.ceil(catalogue.length / 5),
      resources: catalogue.length,
    });
    for (const f of res.body.data) {
      expect(f.id).toBe(featureConfigurationIdOf(c.org.id, f.attributes.domain));
      expect(f.attributes).toEqual({ domain: f.attributes.domain, component: 'area', enabled: true });
      expect(f.meta.name).toBe(featureCatalogue.get(f.attributes.domain)?.description);
      expect(f.relationships.organisation.data).toEqual({ type: 'organisations', id: c.org.id });
    }
    const off = await api.get(`${areaSwitches}&filter[enabled]=false`, token);
    expect(off.body.data).toEqual([]);
  });

  it('pages by cursor through every switch once', async () => {
    const token = await api.token(c.viewer);
    const seen: string[] = [];
    let next: string | undefined = `${areaSwitches}&page[limit]=4&page[cursor]=`;
    while (next) {
      const res = await api.get(next.replace(api.url, ''), token);
      expect(res.status, res.text).toBe(200);
      seen.push(...domainsOf(res));
      next = res.body.links.next ?? undefined;
    }
    expect(seen).toEqual([...featureCatalogue.keys()].sort());
  });

  it('GET by its derived id answers it on, with an ETag; If-None-Match of that tag is 304', async () => {
    const token = await api.token(c.viewer);
    const res = await api.get(switchOf(c, 'assets'), token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      id: featureConfigurationIdOf(c.org.id, 'assets'),
      attributes: { domain: 'assets', component: 'area', enabled: true },
    });
    const tag = res.headers.get('etag');
    expect(tag).toMatch(/^"[\w-]+"$/);
    const again = await api.request('GET', switchOf(c, 'assets'), {
      token,
      headers: { 'if-none-match': tag ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('its first PATCH stores it, with its event; the collection still holds one switch per feature', async () => {
    const token = await api.token(c.admin);
    const before = await api.get(switchOf(c, 'comments'), token);
    const res = await api.request('PATCH', switchOf(c, 'comments'), {
      token,
      headers: { 'if-match': before.headers.get('etag') ?? '' },
      body: patchBody(c, 'comments', { enabled: false }),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes).toEqual({ domain: 'comments', component: 'area', enabled: false });
    expect(res.body.data.meta.created_at).toEqual(expect.any(String));
    expect(res.headers.get('etag')).not.toBe(before.headers.get('etag'));
    const event = await latestEvent(c.org.id, 'feature-configuration.updated', res.body.data.id);
    expect(event.data).toMatchObject({ attributes: { enabled: false } });
    const read = await api.get(switchOf(c, 'comments'), token);
    expect(read.body.data.attributes.enabled).toBe(false);
    expect(read.headers.get('etag')).toBe(res.headers.get('etag'));
    const listed = await api.get(areaSwitches, token);
    expect(domainsOf(listed)).toEqual([...featureCatalogue.keys()].sort());
    expect(listed.body.meta.pagination.counts.resources).toBe(featureCatalogue.size);
    const off = await api.get(`${areaSwitches}&filter[enabled]=false`, token);
    expect(domainsOf(off)).toEqual(['comments']);
    // The stored switch switches: the area answers FEATURE.001 until it is on again.
    const comments = await api.get(`/v3/orgs/${c.org.id}/comments`, await api.token(c.viewer));
    expect(comments.body.errors?.[0]?.code, comments.text).toBe('FEATURE.001');
    const on = await api.request('PATCH', switchOf(c, 'comments'), {
      token,
      body: patchBody(c, 'comments', { enabled: true }),
    });
    expect(on.body.data.attributes.enabled, on.text).toBe(true);
  });

  it('two first PATCHes at once with the tag GET served: one wins, the other is 412 and is not written', async () => {
    const token = await api.token(c.admin);
    const tag = (await api.get(switchOf(c, 'documents'), token)).headers.get('etag') ?? '';
    const answers = await Promise.all(
      [false, true].map((enabled) =>
        api.request('PATCH', switchOf(c, 'documents'), {
          token,
          headers: { 'if-match': tag },
          body: patchBody(c, 'documents', { enabled }),
        }),
      ),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 412]);
    const won = answers.find((res) => res.status === 200);
    const lost = answers.find((res) => res.status === 412);
    expect(lost?.body.errors[0]).toMatchObject({
      code: 'PRECONDITION.001',
      meta: { etag: won?.headers.get('etag') },
    });
    const read = await api.get(switchOf(c, 'documents'), token);
    expect(read.body.data.attributes.enabled).toBe(won?.body.data.attributes.enabled);
    expect(read.headers.get('etag')).toBe(won?.headers.get('etag'));
  });

  it('the first write is a create refused once another stored it: 412 with If-Match, 409 CONFLICT.001 without', async () => {
    // Both requests read the unstored switch before either wrote: the write module given it twice.
    const id = featureConfigurationIdOf(c.org.id, 'exports');
    const unstored = unstoredSwitchWithId([c.org.id], id);
    if (!unstored) throw new Error('exports is a catalogued feature');
    const body = patchBody(c, 'exports', { enabled: false });
    const scope = scopeOf([c.org.id]);
    const first = await updateConfiguration(scope, unstored, body);
    const withTag = { ...scope, precondition: { id, ifMatch: [entityTagOf(unstored)] } };
    await expect(updateConfiguration(withTag, unstored, body)).rejects.toMatchObject({
      status: 412,
      code: 'PRECONDITION.001',
      meta: { etag: entityTagOf(first) },
    });
    await expect(updateConfiguration(scope, unstored, body)).rejects.toMatchObject({
      status: 409,
      code: 'CONFLICT.001',
    });
  });

  it('another organisation’s switch, never stored, is 404 to GET and PATCH, and stays as it was', async () => {
    // Views in B and C, manages only in C: B's switch is out of reach of the PATCH's scope.
    const crossing = await createServiceAccountClient('crossing', [
      { org_id: c.org.id, role: 'admin' },
      { org_id: b.org.id, role: 'viewer' },
    ]);
    const before = await api.get(switchOf(b, 'webhooks'), await api.token(b.viewer));
    expect(before.status, before.text).toBe(200);
    const outsider = await api.get(switchOf(b, 'webhooks'), await api.token(c.admin));
    expect(outsider.status, outsider.text).toBe(404);
    for (const client of [c.admin, crossing]) {
      const res = await api.request('PATCH', switchOf(b, 'webhooks'), {
        token: await api.token(client),
        headers: { 'if-match': before.headers.get('etag') ?? '' },
        body: patchBody(b, 'webhooks', { enabled: false }),
      });
      expect(res.status, res.text).toBe(404);
    }
    const after = await api.get(switchOf(b, 'webhooks'), await api.token(b.viewer));
    expect(after.body.data.attributes.enabled).toBe(true);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    const listed = await api.get(areaSwitches, await api.token(c.viewer));
    expect(
      new Set(
        listed.body.data.map(
          (f: { relationships: { organisation: { data: { id: string } } } }) =>
            f.relationships.organisation.data.id,
        ),
      ),
    ).toEqual(new Set([c.org.id]));
  });
});

describe('PATCH /v3/feature-configurations/{id}', () => {
  it('needs feature-configurations:manage: 403 AUTH.002 without it, and the switch is unchanged', async () => {
    for (const client of [a.viewer, writer]) {
      const res = await api.request('PATCH', switchOf(a, 'costs'), {
        token: await api.token(client),
        body: patchBody(a, 'costs', { enabled: false }),
      });
      expect(res.status, res.text).toBe(403);
      expect(res.body.errors[0].code).toBe('AUTH.002');
    }
    const read = await api.get(switchOf(a, 'costs'), await api.token(a.viewer));
    expect(read.body.data.attributes.enabled).toBe(true);
  });

  it('takes `enabled` alone: another member or a non-boolean is 400', async () => {
    const token = await api.token(a.admin);
    for (const attributes of [{ domain: 'places' }, { enabled: 'no' }, { enabled: false, component: 'x' }]) {
      const res = await api.request('PATCH', switchOf(a, 'costs'), {
        token,
        body: patchBody(a, 'costs', attributes),
      });
      expect(res.status, res.text).toBe(400);
    }
    expect((await api.get(switchOf(a, 'costs'), token)).body.data.attributes.enabled).toBe(true);
  });

  it('honours If-Match: a stale tag is 412 PRECONDITION.001 and changes nothing', async () => {
    const token = await api.token(a.admin);
    const before = await api.get(switchOf(a, 'places'), token);
    const tag = before.headers.get('etag') ?? '';
    await api.request('PATCH', switchOf(a, 'places'), {
      token,
      headers: { 'if-match': tag },
      body: patchBody(a, 'places', { enabled: true }),
    });
    const stale = await api.request('PATCH', switchOf(a, 'places'), {
      token,
      headers: { 'if-match': tag },
      body: patchBody(a, 'places', { enabled: false }),
    });
    expect(stale.status, stale.text).toBe(412);
    expect(stale.body.errors[0].code).toBe('PRECONDITION.001');
    expect((await api.get(switchOf(a, 'places'), token)).body.data.attributes.enabled).toBe(true);
  });

  it('another organisation’s switch is 404 to an administrator of this one', async () => {
    const res = await api.request('PATCH', switchOf(b, 'costs'), {
      token: await api.token(a.admin),
      body: patchBody(b, 'costs', { enabled: false }),
    });
    expect(res.status, res.text).toBe(404);
  });
});

describe('a switched-off area', () => {
  it('switching records a feature-configuration.updated event with the new value', async () => {
    const res = await switchCosts(a, false);
    expect(res.body.data.attributes.enabled).toBe(false);
    const event = await latestEvent(a.org.id, 'feature-configuration.updated', res.body.data.id);
    expect(event.data).toMatchObject({ attributes: { enabled: false } });
    await switchCosts(a, true);
  });

  it('answers 403 FEATURE.001 naming the feature to every write, an administrator’s too', async () => {
    await switchCosts(a, false);
    try {
      for (const client of [writer, a.admin]) {
        const res = await createRateCode(a, client);
        expect(res.status, res.text).toBe(403);
        expect(res.body.errors[0]).toMatchObject({ code: 'FEATURE.001', meta: { feature: 'costs' } });
        expect(res.body.errors[0].detail).toContain('costs');
      }
    } finally {
      await switchCosts(a, true);
    }
  });

  it('keeps its reads open to an administrator (feature-configurations:manage) and closed to anyone else', async () => {
    expect((await createRateCode(a, writer)).status).toBe(201);
    await switchCosts(a, false);
    try {
      const admin = await api.get(rateCodes(a), await api.token(a.admin));
      expect(admin.status, admin.text).toBe(200);
      expect(admin.body.data.length).toBeGreaterThan(0);
      for (const client of [a.viewer, writer]) {
        const res = await api.get(rateCodes(a), await api.token(client));
        expect(res.status, res.text).toBe(403);
        expect(res.body.errors[0]).toMatchObject({ code: 'FEATURE.001', meta: { feature: 'costs' } });
      }
    } finally {
      await switchCosts(a, true);
    }
  });

  it('reads no switch ahead where the caller reads past it: an administrator’s reads; anyone else’s, and writes, read it with the credentials', () => {
    // Issue 42, item 2: an administrator in 100 organisations read 100 switches on every request, which
    // `switchedOn` then skipped; an administrator's read reaches a switched-off feature (test above).
    const costs = (method: string) => {
      const route = routes.find((r) => r.feature === 'costs' && r.method === method);
      if (!route) throw new Error(`no ${method} route of costs`);
      return route;
    };
    const known = new Map([
      [a.org.id, new Set([FEATURE_ADMINISTRATION, 'costs:view' as const])],
      [b.org.id, new Set(['costs:view' as const])],
    ]);
    const orgs = [a.org.id, b.org.id, c.org.id];
    expect(featureAhead(costs('GET'), orgs, known)).toEqual([
      featureSwitchKey(b.org.id, 'costs'),
      featureSwitchKey(c.org.id, 'costs'),
    ]);
    expect(featureAhead(costs('POST'), orgs, known)).toEqual(
      orgs.map((org) => featureSwitchKey(org, 'costs')),
    );
    // A cold container knows nobody: it reads every switch ahead.
    expect(featureAhead(costs('GET'), orgs, undefined)).toEqual(
      orgs.map((org) => featureSwitchKey(org, 'costs')),
    );
  });

  it('works again once switched back on', async () => {
    await switchCosts(a, false);
    expect((await createRateCode(a, writer)).status).toBe(403);
    await switchCosts(a, true);
    expect((await createRateCode(a, writer)).status).toBe(201);
    expect((await api.get(rateCodes(a), await api.token(a.viewer))).status).toBe(200);
  });

  it('is off in its organisation alone: another organisation’s reads and writes go on', async () => {
    await switchCosts(a, false);
    try {
      expect((await api.get(rateCodes(b), await api.token(b.viewer))).status).toBe(200);
      expect((await createRateCode(b, b.admin)).status).toBe(201);
    } finally {
      await switchCosts(a, true);
    }
  });

  it('leaves its due work due in that organisation (run once switched back on), and runs another’s', async () => {
    const ran: string[] = [];
    const probe: DueWorkKind = {
      ...dueWorkKind('test-costs-probe', {
        module: 'test/api/feature-configurations-switch.test.ts',
        run: 'probe',
      }),
      feature: 'costs',
    };
    const work: DueWork = async (entry) => {
      await commit(scopeOf([entry.org_id]), [removeDueEntryOp(entry)]);
      ran.push(entry.org_id);
    };
    const load = (kind: DueWorkKind) => (kind === probe ? Promise.resolve(work) : loadDueWork(kind));
    const at = Date.parse('2027-03-01T09:00:00Z');
    for (const tenant of [a, b]) {
      await commit(scopeOf([tenant.org.id]), [
        dueEntryOp(dueEntry('test-costs-probe', tenant.org.id, randomUUID(), at)),
      ]);
    }
    await switchCosts(a, false);
    // One run over both organisations (this file's table holds no other due entries).
    const run = () => runDueWork([probe], load, at);
    try {
      expect(await run()).toMatchObject({ ran: 1, waiting: 1 });
      expect(ran).toEqual([b.org.id]);
    } finally {
      await switchCosts(a, true);
    }
    expect(await run()).toMatchObject({ ran: 1, waiting: 0 });
    expect(ran).toEqual([b.org.id, a.org.id]);
  });

  it('its consumers pass that organisation’s events by, and handle another’s', async () => {
    const handled: string[] = [];
    const consume = consumeWith([
      { name: 'costs-probe', feature: 'costs', handle: async (event) => void handled.push(event.org_id) },
    ]);
    const eventIn = (tenant: Tenant): StoredEvent => ({
      pk: eventPartition(tenant.org.id),
      sk: randomUUID(),
      gsi1pk: 'x',
      gsi1sk: 'x',
      id: randomUUID(),
      org_id: tenant.org.id,
      event: 'rate-code.created',
      subject: { type: 'rate-codes', id: randomUUID() },
      actor: { kind: 'service-account', id: 'test' },
      occurred_at: new Date().toISOString(),
      data: {},
      expires_at: 0,
    });
    await switchCosts(a, false);
    try {
      const out = await consume({
        Records: [streamRecordOf(eventIn(a)), streamRecordOf(eventIn(b))] as never,
      });
      expect(out.batchItemFailures).toEqual([]);
      expect(handled).toEqual([b.org.id]);
    } finally {
      await switchCosts(a, true);
    }
  });
});
