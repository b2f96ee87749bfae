import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { areas, bundleArea } from '../../infra/area-bundle';
import { startTestApi, type TestApi } from '../support/api';
import { invokeBuilt } from '../support/bundle-env';
import { deliverEvents } from '../support/event-stream';
import { gatewayEvent } from '../support/gateway-event';
import { newTenant, type Tenant } from '../support/tenants';

const out = mkdtempSync(join(tmpdir(), 'every-declaration-bundled-'));
const AREAS = ['events', 'audit', 'feature-configurations', 'webhooks'];
let api: TestApi;
let tenant: Tenant;
let token: string;
let van: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Bundled Every Declaration Org', 0);
  token = await api.token(tenant.admin);
  for (const area of AREAS) bundleArea(area, areas().get(area) ?? [], join(out, area));
  const org = `/v3/orgs/${tenant.org.id}`;
  const created = await api.request('POST', `${org}/assets/vehicles`, {
    token,
    body: { data: { type: 'vehicles', attributes: { registration: 'BU24 NDL' } } },
  });
  expect(created.status, created.text).toBe(201);
  van = created.body.data.id;
  const patched = await api.request('PATCH', `/v3/vehicles/${van}`, {
    token,
    body: { data: { type: 'vehicles', id: van, attributes: { colour: 'white' } } },
  });
  expect(patched.status, patched.text).toBe(200);
  await deliverEvents(tenant.org.id);
  // Until the van's two events are past the feed's settle window (EVENT_FEED_SETTLE_SECONDS), and with
  // them every earlier one, so both reads of the feed see the same events.
  await vi.waitFor(async () => {
    const fed = await api.get(`${org}/events?filter[subject_id]=${van}`, token);
    expect(fed.body.data).toHaveLength(2);
  }, 10_000);
}, 120_000);
afterAll(async () => {
  await api.close();
  rmSync(out, { recursive: true, force: true });
});

interface Presented {
  attributes: Record<string, unknown>;
}
interface Document {
  data?: Presented[];
  errors?: { source?: { pointer?: string } }[];
}

interface Request {
  method: string;
  path: string;
  query?: string;
  body?: object;
}

/** Each request handed to the area's bundled function, one cold process for all; their answers. */
const answersOf = (area: string, requests: Request[]) => {
  const events = requests.map(({ method, path, query, body }) =>
    gatewayEvent({
      method,
      route: '$default',
      path,
      query,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/vnd.api+json',
        ...(body && { 'content-type': 'application/vnd.api+json' }),
      },
      ...(body && { body: JSON.stringify(body) }),
    }),
  );
  return invokeBuilt(join(out, area, 'index.mjs'), events).map(({ statusCode, body }) => ({
    status: statusCode,
    body: JSON.parse(body) as Document,
  }));
};

/** A document's resources without their links (absolute, so they name the host each was reached at). */
const withoutLinks = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutLinks)
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(
          Object.entries(value).flatMap(([key, member]) =>
            key === 'links' ? [] : [[key, withoutLinks(member)]],
          ),
        )
      : value;

/** Each GET answered by the bundled function and by the API with every declaration: status and resources. */
const sameAsTheApi = async (area: string, reads: Request[]) => {
  const bundled = answersOf(area, reads);
  for (const [i, { path, query }] of reads.entries()) {
    const whole = await api.get(query ? `${path}?${query}` : path, token);
    expect([bundled[i]?.status, withoutLinks(bundled[i]?.body.data)], `${path}?${query ?? ''}`).toEqual([
      whole.status,
      withoutLinks(whole.body.data),
    ]);
  }
  return bundled;
};

describe('a function reading every declaration answers from what its entry carries as the API does', () => {
  it("events: the feed, all of it and by an event name, each event's record with its empty relationships as the API gives them", async () => {
    const [all, named] = await sameAsTheApi('events', [
      { method: 'GET', path: `/v3/orgs/${tenant.org.id}/events` },
      { method: 'GET', path: `/v3/orgs/${tenant.org.id}/events`, query: 'filter[type]=grant.created' },
    ]);
    expect(all?.body.data?.length).toBeGreaterThanOrEqual(2);
    const names = (named?.body.data ?? []).map((e: Presented) => e.attributes.name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names)).toEqual(new Set(['grant.created']));
  });

  it('audit: the organisation’s audit log and a vehicle’s history, each side with its empty relationships', async () => {
    const [log] = await sameAsTheApi('audit', [
      { method: 'GET', path: `/v3/orgs/${tenant.org.id}/audit-events` },
      { method: 'GET', path: `/v3/vehicles/${van}/audit-events` },
    ]);
    expect(log?.body.data?.length).toBeGreaterThan(0);
  });

  it('feature-configurations: every catalogued switch', async () => {
    const [listed] = await sameAsTheApi('feature-configurations', [
      { method: 'GET', path: '/v3/feature-configurations' },
    ]);
    expect(listed?.body.data?.length).toBeGreaterThan(0);
  });

  it("webhooks: a subscription to every event or to one is taken (each type's read permission held), an unknown event refused", () => {
    const subscribe = (event_types: string[]) => ({
      method: 'POST',
      path: `/v3/orgs/${tenant.org.id}/webhook-subscriptions`,
      body: {
        data: {
          type: 'webhook-subscriptions',
          attributes: { url: 'https://hooks.example.com/a', event_types },
        },
      },
    });
    const answers = answersOf('webhooks', [
      subscribe(['*']),
      subscribe(['vehicle.allocated']),
      subscribe(['vehicle.painted']),
    ]);
    expect(answers.map(({ status, body }) => [status, body.errors?.[0]?.source?.pointer])).toEqual([
      [201, undefined],
      [201, undefined],
      [400, '/data/attributes/event_types'],
    ]);
  });
});
