/**
 * Issue 18, point 6: `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header) on every write route.
 * Real stack: the local adapter, the real handlers, DynamoDB Local. The one test that holds a request in
 * flight does it in the data layer: a middleware on the table's client delays that request's write
 * until the test lets it go (the write itself is real), so the overlap is certain rather than timed.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSession } from '#shared/auth/sessions';
import { documents, dynamodb, tableName } from '#shared/data/clients';
import { idempotencyRecordKey } from '#shared/data/idempotency';
import type { ApiContext } from '#shared/http/api-context';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { takesIdempotencyKey } from '#shared/http/middlewares/idempotency';
import { metaDocument } from '#shared/jsonapi/document';
import { ServiceUnavailableError, ValidationError } from '#shared/jsonapi/errors';
import { type Route, routes } from '#shared/routes';
import { grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { gatewayEvent } from '../support/gateway-event';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: Record<string, string>;
let otherAdmin: Record<string, string>;
let viewer: Record<string, string>;
let adminId: string;
let otherAdminId: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Idempotency Keys Org', 4);
  const [first, second, third] = tenant.people.map((p) => p.id ?? '');
  adminId = first ?? '';
  otherAdminId = second ?? '';
  await grantRole(tenant.org.id, 'admin', 'user', adminId);
  await grantRole(tenant.org.id, 'admin', 'user', otherAdminId);
  await grantRole(tenant.org.id, 'viewer', 'user', third ?? '');
  admin = { 'x-session-token': (await startSession(adminId)).token };
  otherAdmin = { 'x-session-token': (await startSession(otherAdminId)).token };
  viewer = { 'x-session-token': (await startSession(third ?? '')).token };
});
afterAll(() => api.close());

const KEY = 'Idempotency-Key';
const REPLAYED = 'idempotent-replayed';
const jobRoles = () => `/v3/orgs/${tenant.org.id}/people/job-roles`;
const jobRole = (attributes: object) => ({ data: { type: 'job-roles', attributes } });
const createRole = (key: string | undefined, attributes: object, headers = admin) =>
  api.request('POST', jobRoles(), {
    headers: { ...headers, ...(key !== undefined && { [KEY]: key }) },
    body: jobRole(attributes),
  });
const rolesCoded = async (code: string) => {
  const res = await api.request('GET', `${jobRoles()}?filter[code]=${code}`, { headers: admin });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { id: string }[];
};
const storedRecord = async (principalId: string, key: string) =>
  (
    await documents.send(
      new GetCommand({ TableName: tableName, Key: idempotencyRecordKey(principalId, key) }),
    )
  ).Item;

describe('the same key with the same request answers the first answer again (draft §2.6)', () => {
  it('a create is replayed: same status 201, body, Location and Content-Type, marked Idempotent-Replayed; one record exists', async () => {
    const key = `"${randomUUID()}"`;
    const first = await createRole(key, { name: 'Gate keeper', code: 'IK-CREATE' });
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get(REPLAYED)).toBeNull();
    const again = await createRole(key, { name: 'Gate keeper', code: 'IK-CREATE' });
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get(REPLAYED)).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await rolesCoded('IK-CREATE')).toHaveLength(1);
  });

  it('the key may be sent as a Structured Field String or bare: "k" and k are the same key', async () => {
    const bare = randomUUID();
    const first = await createRole(bare, { name: 'Bare key', code: 'IK-BARE' });
    expect(first.status, first.text).toBe(201);
    const quoted = await createRole(`"${bare}"`, { name: 'Bare key', code: 'IK-BARE' });
    expect(quoted.headers.get(REPLAYED)).toBe('true');
    expect(quoted.body.data.id).toBe(first.body.data.id);
    expect(await rolesCoded('IK-BARE')).toHaveLength(1);
  });

  it('a PATCH is replayed without changing the record again; a DELETE is replayed as 204, not 404', async () => {
    const made = await createRole(undefined, { name: 'Patched', code: 'IK-PATCH' });
    const id = made.body.data.id as string;
    const patch = () =>
      api.request('PATCH', `/v3/job-roles/${id}`, {
        headers: { ...admin, [KEY]: 'patch-key-1' },
        body: { data: { type: 'job-roles', id, attributes: { description: 'Once.' } } },
      });
    const first = await patch();
    expect(first.status, first.text).toBe(200);
    const modified = (await api.request('GET', `/v3/job-roles/${id}`, { headers: admin })).text;
    const again = await patch();
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get(REPLAYED)).toBe('true');
    expect(again.text).toBe(first.text);
    expect((await api.request('GET', `/v3/job-roles/${id}`, { headers: admin })).text).toBe(modified);

    const remove = () =>
      api.request('DELETE', `/v3/job-roles/${id}`, { headers: { ...admin, [KEY]: 'delete-key-1' } });
    const gone = await remove();
    expect(gone.status, gone.text).toBe(204);
    const replayed = await remove();
    expect(replayed.status, replayed.text).toBe(204);
    expect(replayed.headers.get(REPLAYED)).toBe('true');
    expect(
      (await api.request('DELETE', `/v3/job-roles/${id}`, { headers: { ...admin, [KEY]: 'delete-key-2' } }))
        .status,
    ).toBe(404);
  });

  it('a 4xx answer is kept and replayed too: the same request is judged the same', async () => {
    const key = randomUUID();
    const first = await createRole(key, { code: 'IK-NONAME' });
    expect(first.status, first.text).toBe(400);
    const again = await createRole(key, { code: 'IK-NONAME' });
    expect(again.status).toBe(400);
    expect(again.headers.get(REPLAYED)).toBe('true');
    expect(again.text).toBe(first.text);
  });
});

describe('the same key with another request is 422 (draft §2.7) and writes nothing', () => {
  it('another body, path or method under a used key: 422 at source.header, IDEMPOTENCY.001', async () => {
    const key = randomUUID();
    expect((await createRole(key, { name: 'First use', code: 'IK-FIRST' })).status).toBe(201);
    const otherBody = await createRole(key, { name: 'Second use', code: 'IK-SECOND' });
    expect(otherBody.status, otherBody.text).toBe(422);
    expect(otherBody.body.errors[0]).toMatchObject({
      status: '422',
      code: 'IDEMPOTENCY.001',
      source: { header: KEY },
    });
    expect(await rolesCoded('IK-SECOND')).toHaveLength(0);
    const otherRoute = await api.request('POST', `/v3/orgs/${tenant.org.id}/people/teams`, {
      headers: { ...admin, [KEY]: key },
      body: { data: { type: 'teams', attributes: { name: 'Not made' } } },
    });
    expect(otherRoute.status, otherRoute.text).toBe(422);
    const teams = await api.request('GET', `/v3/orgs/${tenant.org.id}/people/teams?filter[name]=Not made`, {
      headers: admin,
    });
    expect(teams.body.data).toEqual([]);
  });
});

describe('keys belong to their caller', () => {
  it('another principal using the same key runs its own request and never sees the first answer', async () => {
    const key = randomUUID();
    const mine = await createRole(key, { name: 'Mine', code: 'IK-MINE' });
    expect(mine.status).toBe(201);
    const theirs = await createRole(key, { name: 'Mine', code: 'IK-THEIRS' }, otherAdmin);
    expect(theirs.status, theirs.text).toBe(201);
    expect(theirs.headers.get(REPLAYED)).toBeNull();
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });

  it('a caller without the permission gets its 403, not a replay of the same request by another', async () => {
    const key = randomUUID();
    expect((await createRole(key, { name: 'Guarded', code: 'IK-GUARD' })).status).toBe(201);
    const refused = await createRole(key, { name: 'Guarded', code: 'IK-GUARD' }, viewer);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.headers.get(REPLAYED)).toBeNull();
  });

  it('the permission is checked before any replay: a caller who lost its grant is refused, not answered its kept answer', async () => {
    const user = tenant.people[3]?.id ?? '';
    const grant = await grantRole(tenant.org.id, 'admin', 'user', user);
    const session = { 'x-session-token': (await startSession(user)).token };
    const key = randomUUID();
    const first = await createRole(key, { name: 'Before revocation', code: 'IK-REVOKE' }, session);
    expect(first.status, first.text).toBe(201);
    const revoked = await api.request('DELETE', `/v3/orgs/${tenant.org.id}/iam/grants/${grant.id}`, {
      headers: admin,
    });
    expect(revoked.status, revoked.text).toBe(204);
    const again = await createRole(key, { name: 'Before revocation', code: 'IK-REVOKE' }, session);
    expect([403, 404], again.text).toContain(again.status);
    expect(again.headers.get(REPLAYED)).toBeNull();
  });
});

describe('malformed keys are 400 at source.header, before anything is done', () => {
  it.each([
    ['empty string', '""'],
    ['256 characters', `"${'k'.repeat(256)}"`],
    ['256 characters bare', 'k'.repeat(256)],
    ['unterminated string', '"abc'],
    ['two keys', '"a", "b"'],
    ['a space in a bare key', 'a b'],
    ['non-ASCII', 'cl\u00e9'],
    ['characters after the string', '"a";x=1 2'],
  ])('%s', async (_, value) => {
    const res = await createRole(value, { name: 'Never', code: 'IK-NEVER' });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].source).toEqual({ header: KEY });
    expect(res.body.errors[0].detail).toMatch(/^Idempotency-Key /);
  });

  it('nothing was written by them', async () => {
    expect(await rolesCoded('IK-NEVER')).toHaveLength(0);
  });

  it('255 characters and parameters after the string are accepted', async () => {
    const res = await createRole(`"${'k'.repeat(255)}";v=1`, { name: 'Longest', code: 'IK-LONG' });
    expect(res.status, res.text).toBe(201);
  });
});

describe('a request still in flight', () => {
  it('holds its key: the same key meanwhile is 409 with Retry-After; afterwards the answer is replayed; one record', async () => {
    const code = `IK-INFLIGHT-${randomUUID().slice(0, 8)}`;
    let arrived!: () => void;
    const atWrite = new Promise<void>((done) => {
      arrived = done;
    });
    let release!: () => void;
    const released = new Promise<void>((done) => {
      release = done;
    });
    const name = 'idempotency-test-hold';
    // Holds the first request's own transaction (it names its code) until the test lets it go.
    dynamodb.middlewareStack.add(
      (next) => async (args) => {
        if (JSON.stringify((args as { input?: unknown }).input ?? {}).includes(code)) {
          arrived();
          await released;
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      const key = randomUUID();
      const first = createRole(key, { name: 'In flight', code });
      await atWrite;
      const meanwhile = await createRole(key, { name: 'In flight', code });
      expect(meanwhile.status, meanwhile.text).toBe(409);
      expect(Number(meanwhile.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(meanwhile.body.errors[0]).toMatchObject({ code: 'CONFLICT.001', source: { header: KEY } });
      release();
      const done = await first;
      expect(done.status, done.text).toBe(201);
      const after = await createRole(key, { name: 'In flight', code });
      expect(after.status).toBe(201);
      expect(after.headers.get(REPLAYED)).toBe('true');
      expect(after.body.data.id).toBe(done.body.data.id);
      expect(await rolesCoded(code)).toHaveLength(1);
    } finally {
      release();
      dynamodb.middlewareStack.remove(name);
    }
  });
});

describe('secrets are shown once and never kept', () => {
  it('a service-account key created with a key: the stored record holds no secret; the replay masks it as GET does', async () => {
    const account = await api.request('POST', `/v3/orgs/${tenant.org.id}/iam/service-accounts`, {
      headers: admin,
      body: { data: { type: 'service-accounts', attributes: { name: 'Idempotent bridge' } } },
    });
    expect(account.status, account.text).toBe(201);
    const keys = `/v3/orgs/${tenant.org.id}/iam/service-accounts/${account.body.data.id}/keys`;
    const key = randomUUID();
    const first = await api.request('POST', keys, { headers: { ...admin, [KEY]: key } });
    expect(first.status, first.text).toBe(201);
    const secret = first.body.data.attributes.client_secret as string;
    expect(secret).not.toMatch(/^\*/);
    expect(first.body.data.meta.secret_shown_once).toBe(true);

    const stored = await storedRecord(adminId, key);
    expect(stored?.state).toBe('done');
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(JSON.stringify(stored)).not.toContain(key);

    const again = await api.request('POST', keys, { headers: { ...admin, [KEY]: key } });
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get(REPLAYED)).toBe('true');
    expect(again.text).not.toContain(secret);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.data.attributes.client_secret).toBe(`${'*'.repeat(12)}${secret.slice(-4)}`);
    expect(again.body.data.meta.secret_shown_once).toBe(false);
    expect(again.body.meta.replay.omitted).toEqual(['/data/attributes/client_secret']);
    const shown = await api.request('GET', first.headers.get('location')?.replace(api.url, '') ?? '', {
      headers: admin,
    });
    expect(again.body.data.attributes).toEqual(shown.body.data.attributes);
    const listed = await api.request('GET', keys, { headers: admin });
    expect(listed.body.data).toHaveLength(1);
  });
});

describe('issue 39, finding 3: every one-time secret is masked in every kept answer, by one rule', () => {
  /** Sends the same request twice under one key: the first answer, the replay, and the stored item. */
  const twice = async (method: 'POST', path: string, body?: object) => {
    const key = randomUUID();
    const send = () =>
      api.request(method, path, { headers: { ...admin, [KEY]: key }, ...(body && { body }) });
    const first = await send();
    expect(first.status, first.text).toBeLessThan(300);
    const again = await send();
    expect(again.headers.get(REPLAYED)).toBe('true');
    expect(again.status).toBe(first.status);
    const stored = await storedRecord(adminId, key);
    expect(stored?.state).toBe('done');
    expect(stored?.body, 'kept as text, not gzipped, so the assertions below read it').toBeTypeOf('string');
    return { first, again, stored };
  };
  const expectSecretNotKept = ({ first, again, stored }: Awaited<ReturnType<typeof twice>>) => {
    const secret = first.body.data.attributes.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(JSON.stringify(stored)).not.toContain('whsec_');
    expect(again.text).not.toContain('whsec_');
    expect(again.body.data.attributes.secret).toBe(`${'*'.repeat(12)}${secret.slice(-4)}`);
    expect(again.body.meta.replay.omitted).toEqual(['/data/attributes/secret']);
    expect(again.body.meta.replay.detail).toMatch(/secrets .* were shown once and not kept/);
    const { secret: _secret, ...rest } = first.body.data.attributes;
    const { secret: _masked, ...replayed } = again.body.data.attributes;
    expect(replayed).toEqual(rest);
  };
  const subscription = {
    data: {
      type: 'webhook-subscriptions',
      attributes: { url: 'https://hooks.example.com/in', event_types: ['vehicle.created'] },
    },
  };

  it('a webhook subscription created with a key: neither the stored item nor the replay holds its whsec_ secret; the replay names what it omitted', async () => {
    const created = await twice('POST', `/v3/orgs/${tenant.org.id}/webhook-subscriptions`, subscription);
    expect(created.first.status).toBe(201);
    expectSecretNotKept(created);
  });

  it('its secret rotated with a key: likewise', async () => {
    const made = await api.request('POST', `/v3/orgs/${tenant.org.id}/webhook-subscriptions`, {
      headers: admin,
      body: subscription,
    });
    expect(made.status, made.text).toBe(201);
    const rotated = await twice('POST', `/v3/webhook-subscriptions/${made.body.data.id}/rotate-secret`);
    expect(rotated.first.status).toBe(200);
    expectSecretNotKept(rotated);
  });
});

/** A route of its own for the middleware, served by `jsonApiHandler` against DynamoDB Local. */
const probe: Route = {
  id: 'idempotencyProbe',
  method: 'POST',
  path: '/v3/orgs/{org_id}/idempotency-probe',
  area: 'test',
  tag: 'Test',
  handler: 'x',
  auth: ['Session'],
  permission: 'teams:manage',
  access: {},
};

const probeEvent = (token: string, key: string) =>
  gatewayEvent({
    method: 'POST',
    route: probe.path,
    path: `/v3/orgs/${tenant.org.id}/idempotency-probe`,
    headers: { 'x-session-token': token, 'idempotency-key': key, accept: 'application/vnd.api+json' },
    pathParameters: { org_id: tenant.org.id },
  });

describe('a first request that fails on the server side frees its key (draft: the server decides)', () => {
  it('after a 5xx (a thrown failure or a 503) the key is released and the retry runs; a 4xx is kept', async () => {
    const token = admin['x-session-token'] ?? '';
    let runs = 0;
    const failures = [
      () => {
        throw new Error('a server-side failure');
      },
      () => {
        throw new ServiceUnavailableError();
      },
    ];
    const handler = jsonApiHandler(probe, async () => {
      runs += 1;
      failures[runs - 1]?.();
      return metaDocument({ run: runs });
    });
    // The 500's stack goes to the log, as it should; not into the test output.
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const key = randomUUID();
    const call = () => handler(probeEvent(token, key), {} as ApiContext);
    expect((await call()).statusCode).toBe(500);
    expect(await storedRecord(adminId, key)).toBeUndefined();
    expect((await call()).statusCode).toBe(503);
    logged.mockRestore();
    expect(await storedRecord(adminId, key)).toBeUndefined();
    const ok = await call();
    expect(ok.statusCode).toBe(200);
    expect(JSON.parse(ok.body ?? '').meta).toEqual({ run: 3 });
    const replay = await call();
    expect(replay.headers?.['Idempotent-Replayed']).toBe('true');
    expect(replay.body).toBe(ok.body);
    expect(runs).toBe(3);

    const refusing = jsonApiHandler(probe, async () => {
      runs += 1;
      throw new ValidationError({ detail: 'no', source: { pointer: '/data' } });
    });
    const refusedKey = randomUUID();
    const refused = await refusing(probeEvent(token, refusedKey), {} as ApiContext);
    expect(refused.statusCode).toBe(400);
    const kept = await refusing(probeEvent(token, refusedKey), {} as ApiContext);
    expect(kept.headers?.['Idempotent-Replayed']).toBe('true');
    expect(kept.body).toBe(refused.body);
    expect(runs).toBe(4);
  });
});

/** `{org_id}` is the test organisation; every other path id a fresh UUID (which names nothing). */
const concretePath = (route: Route) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'org_id' ? tenant.org.id : randomUUID()));

describe('every write route passes through the idempotency middlewares', () => {
  const writes = routes.filter((route) => route.method !== 'GET');

  it('every authenticated write route refuses a malformed key with 400 before anything else, even without credentials', async () => {
    const taking = writes.filter(takesIdempotencyKey);
    expect(taking.length).toBeGreaterThan(100);
    for (const route of taking) {
      const res = await api.request(route.method, concretePath(route), {
        headers: { [KEY]: '"unterminated' },
      });
      expect(res.status, `${route.id}: ${res.text}`).toBe(400);
      expect(res.body.errors[0].source, route.id).toEqual({ header: KEY });
    }
  }, 120_000);

  it('every authenticated write route keeps its answer under a key and replays it to the same request', async () => {
    for (const route of writes.filter(takesIdempotencyKey)) {
      const key = randomUUID();
      const path = concretePath(route);
      const send = () =>
        api.request(route.method, path, { headers: { ...admin, [KEY]: key }, body: { data: {} } });
      if (route.id === 'endSession') {
        // Logging out ends the session sending it: the same request again is no one's (401), nothing to replay.
        const own = { 'x-session-token': (await startSession(adminId)).token };
        const out = () => api.request(route.method, path, { headers: { ...own, [KEY]: key } });
        expect((await out()).status).toBe(204);
        expect((await out()).status).toBe(401);
        continue;
      }
      const first = await send();
      expect(first.status, `${route.id}: ${first.text}`).toBeLessThan(500);
      const again = await send();
      expect(again.headers.get(REPLAYED), `${route.id} answered ${again.status}: ${again.text}`).toBe('true');
      expect(again.status, route.id).toBe(first.status);
    }
  }, 240_000);

  it('the public write routes (token endpoint, SNS receiver, invitation acceptance, one-click unsubscribe) ignore the header: they take no key', async () => {
    // An accepted invitation's token works once: a second sending is refused, never done twice. A
    // one-click unsubscribe (RFC 8058: a mail client sends no key) turns a category's e-mail off: twice is once.
    const publicWrites = writes.filter((route) => !takesIdempotencyKey(route));
    expect(publicWrites.map((route) => route.id).sort()).toEqual([
      'acceptInvitation',
      'issueToken',
      'receiveStreetWorksProtection',
      'unsubscribeNotifications',
    ]);
    for (const route of publicWrites) {
      const res = await api.request(route.method, route.path, { headers: { [KEY]: '"unterminated' } });
      expect(res.headers.get(REPLAYED), route.id).toBeNull();
      const sources = (res.body?.errors ?? []).map((e: { source?: unknown }) => e.source);
      expect(sources, route.id).not.toContainEqual({ header: KEY });
    }
  });
});
