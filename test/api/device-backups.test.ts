import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceBackups } from '#functions/device-backups/definitions';
import { createBackup } from '#functions/device-backups/writes';
import { getItem } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { createServiceAccountClient, grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { idsByCursor } from '../support/cursor-walk';
import { itemCount } from '../support/item-count';
import { queryScans } from '../support/query-scans';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
const tokens: Record<'admin' | 'device' | 'otherDevice' | 'viewer' | 'otherViewer', string> = {
  admin: '',
  device: '',
  otherDevice: '',
  viewer: '',
  otherViewer: '',
};
let deviceId = '';

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Backups Org', 1), newTenant('Backups Other', 0)]);
  tokens.admin = await api.token(tenant.admin);
  tokens.viewer = await api.token(tenant.viewer);
  tokens.otherViewer = await api.token(other.viewer);
  const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/iam/roles`, {
    token: tokens.admin,
    body: { data: { type: 'roles', attributes: { name: 'Device', permissions: ['device-backups:create'] } } },
  });
  for (const key of ['device', 'otherDevice'] as const) {
    const client = await createServiceAccountClient(`Tablet ${key}`, [
      { org_id: tenant.org.id, role: role.body.data.id },
    ]);
    await grantRole(tenant.org.id, role.body.data.id, 'service_account', client.principalId);
    tokens[key] = await api.token(client);
    if (key === 'device') deviceId = client.principalId;
  }
});
afterAll(() => api.close());

const org = (id = tenant.org.id) => `/v3/orgs/${id}`;
const file = 'SQLite format 3\u0000 field records for tablet-07';
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');
const backupBody = (extra: object = {}, attributes: object = {}) => ({
  data: {
    type: 'device-backups',
    attributes: { device: 'tablet-07', size: Buffer.byteLength(file), checksum: sha256(file), ...attributes },
    ...extra,
  },
});
const createAndUpload = async (body = backupBody(), content = file) => {
  const created = await api.request('POST', `${org()}/device-backups`, { token: tokens.device, body });
  expect(created.status, created.text).toBe(201);
  const put = created.body.data.meta.upload;
  expect((await fetch(put.url, { method: 'PUT', headers: put.headers, body: content })).status).toBe(200);
  return created.body.data.id as string;
};
const complete = (id: string, token = tokens.device) =>
  api.request('POST', `/v3/device-backups/${id}/complete`, { token });

describe('device backups: request, upload, complete, download', () => {
  it('a request names the device; the device uploads against it; the record keeps size, checksum, device, user, organisation and requested-by', async () => {
    const request = await api.request('POST', `${org()}/device-backup-requests`, {
      token: tokens.admin,
      body: {
        data: {
          type: 'device-backup-requests',
          attributes: { device: 'tablet-07' },
          relationships: { user: { data: { type: 'users', id: tenant.people[0]?.id } } },
        },
      },
    });
    expect(request.status, request.text).toBe(201);
    const open = await api.get(
      `${org()}/device-backup-requests?filter[device]=tablet-07&filter[status]=open`,
      tokens.device,
    );
    expect(open.body.data.map((r: { id: string }) => r.id)).toEqual([request.body.data.id]);
    const id = await createAndUpload(
      backupBody({
        relationships: { request: { data: { type: 'device-backup-requests', id: request.body.data.id } } },
      }),
    );
    const done = await complete(id);
    expect(done.status, done.text).toBe(200);
    expect(done.body.data.attributes).toMatchObject({
      device: 'tablet-07',
      size: Buffer.byteLength(file),
      checksum: sha256(file),
      status: 'available',
    });
    expect(done.body.data.relationships).toMatchObject({
      organisation: { data: { id: tenant.org.id } },
      user: { data: { id: tenant.people[0]?.id } },
      uploaded_by_service_account: { data: { id: deviceId } },
      requested_by_service_account: { data: { id: tenant.admin.principalId } },
    });
    // Kept 30 whole days: until the end of the 30th day after the day it was made (UTC).
    const day = 86_400_000;
    const made = Math.floor(Date.parse(done.body.data.meta.created_at) / day) * day;
    expect(Date.parse(done.body.data.meta.expires_at)).toBe(made + 31 * day);
    const fulfilled = await api.get(
      `${org()}/device-backup-requests?filter[status]=fulfilled`,
      tokens.device,
    );
    expect(fulfilled.body.data[0].relationships.backup.data.id).toBe(id);
    const download = await fetch(`${api.url}/v3/device-backups/${id}/content`, {
      headers: { authorization: `Bearer ${tokens.viewer}` },
    });
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(file);
  });

  it('a file that is not the declared one (checksum) is refused on completion (409); only the uploader completes (403)', async () => {
    const id = await createAndUpload(backupBody(), file.replace('07', '08'));
    expect((await complete(id, tokens.otherDevice)).status).toBe(403);
    const refused = await complete(id);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].detail).toMatch(/not what was declared/);
  });

  it('a malformed checksum or size is 400 at its pointer', async () => {
    const res = await api.request('POST', `${org()}/device-backups`, {
      token: tokens.device,
      body: backupBody({}, { checksum: 'abc', size: 0 }),
    });
    expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
      '/data/attributes/checksum',
      '/data/attributes/size',
    ]);
    const { checksum: _none, ...withoutChecksum } = backupBody().data.attributes;
    const missing = await api.request('POST', `${org()}/device-backups`, {
      token: tokens.device,
      body: { data: { type: 'device-backups', attributes: withoutChecksum } },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].source).toEqual({ pointer: '/data/attributes/checksum' });
  });
});

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describe('device names never reach S3 keys (issue 15, finding 3)', () => {
  const badNames = [
    '../../x',
    '..',
    'a/../../b',
    '.',
    '/etc/passwd',
    'tablet/07',
    'a\\..\\b',
    '.hidden',
    'tablet.',
    'tab\u0000let',
    'tab\nlet',
    '%2e%2e',
    '   ',
  ];

  it('a device name that is not a plain name (path segments, slashes, dots at the ends, control characters) is 400 at /data/attributes/device, and nothing is written', async () => {
    const before = await itemCount();
    for (const device of badNames) {
      const backup = await api.request('POST', `${org()}/device-backups`, {
        token: tokens.device,
        body: backupBody({}, { device }),
      });
      const request = await api.request('POST', `${org()}/device-backup-requests`, {
        token: tokens.admin,
        body: { data: { type: 'device-backup-requests', attributes: { device } } },
      });
      for (const res of [backup, request]) {
        expect(res.status, `${JSON.stringify(device)}: ${res.text}`).toBe(400);
        expect(
          new Set(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)),
        ).toEqual(new Set(['/data/attributes/device']));
      }
    }
    expect(await itemCount()).toBe(before);
  });

  it('plain names in any script are accepted', async () => {
    for (const device of ['tablet-07', 'Tablet 7', 'site_3.tablet', 'Tablette Zoé 2', 'タブレット1']) {
      const res = await api.request('POST', `${org()}/device-backups`, {
        token: tokens.device,
        body: backupBody({}, { device }),
      });
      expect(res.status, `${device}: ${res.text}`).toBe(201);
    }
  });

  it('the upload key and the accepted file’s key hold ids only; the device’s name is only the download’s file name', async () => {
    const created = await api.request('POST', `${org()}/device-backups`, {
      token: tokens.device,
      body: backupBody({}, { device: 'Tablet 7' }),
    });
    const put = created.body.data.meta.upload;
    const id = created.body.data.id as string;
    expect(new URL(put.url).pathname.split('/').slice(2).join('/')).toBe(`uploads/${tenant.org.id}/${id}`);
    await fetch(put.url, { method: 'PUT', headers: put.headers, body: file });
    expect((await complete(id)).status).toBe(200);
    const stored = await getItem<StoredResource>(deviceBackups.keyOf(tenant.org.id, id));
    expect(stored?.object_key).toMatch(new RegExp(`^${tenant.org.id}/${id}/${UUID}$`));
    const download = await fetch(`${api.url}/v3/device-backups/${id}/content`, {
      headers: { authorization: `Bearer ${tokens.viewer}` },
    });
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="Tablet 7-${id}.backup"`);
  });
});

describe('an accepted backup cannot be swapped (issue 15, finding 2)', () => {
  it('the presigned upload signs the client’s SHA-256 as a header', async () => {
    const created = await api.request('POST', `${org()}/device-backups`, {
      token: tokens.device,
      body: backupBody(),
    });
    const put = created.body.data.meta.upload;
    const url = new URL(put.url);
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('x-amz-checksum-sha256');
    expect([...url.searchParams.keys()].filter((k) => k.toLowerCase().startsWith('x-amz-checksum'))).toEqual(
      [],
    );
    expect(put.headers['x-amz-checksum-sha256']).toBe(sha256(file));
  });

  it('after completion, other bytes PUT through the same, still valid URL change nothing: the download serves the accepted file', async () => {
    const created = await api.request('POST', `${org()}/device-backups`, {
      token: tokens.device,
      body: backupBody(),
    });
    const put = created.body.data.meta.upload;
    const id = created.body.data.id as string;
    await fetch(put.url, { method: 'PUT', headers: put.headers, body: file });
    expect((await complete(id)).status).toBe(200);
    const swapped = file.replace('tablet-07', 'tablet-66');
    // AWS refuses this PUT (the checksum is signed); s3rver stores it, as an engine ignoring signed headers would.
    expect((await fetch(put.url, { method: 'PUT', headers: put.headers, body: swapped })).status).toBe(200);
    const download = await fetch(`${api.url}/v3/device-backups/${id}/content`, {
      headers: { authorization: `Bearer ${tokens.viewer}` },
    });
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(file);
    expect((await complete(id)).status).toBe(409);
  });
});

describe('who sees device backups', () => {
  it('holders of device-backups:view in the organisation list and read them', async () => {
    const ids = [await createAndUpload(), await createAndUpload()];
    for (const id of ids) expect((await complete(id)).status).toBe(200);
    const list = await api.get(`${org()}/device-backups?filter[device]=tablet-07`, tokens.viewer);
    expect(list.status).toBe(200);
    expect(list.body.data.map((b: { id: string }) => b.id)).toEqual(expect.arrayContaining(ids));
    expect((await api.get(`/v3/device-backups/${ids[0]}`, tokens.viewer)).status).toBe(200);
  });

  it('a holder of device-backups:view in another organisation sees nothing (404 for the organisation and each backup)', async () => {
    const id = await createAndUpload();
    expect((await complete(id)).status).toBe(200);
    expect((await api.get(`/v3/device-backups/${id}`, tokens.viewer)).status).toBe(200);
    expect((await api.get(`${org()}/device-backups`, tokens.otherViewer)).status).toBe(404);
    expect((await api.get(`/v3/device-backups/${id}`, tokens.otherViewer)).status).toBe(404);
    expect((await api.get(`/v3/device-backups/${id}/content`, tokens.otherViewer)).status).toBe(404);
    expect((await api.get(`${org(other.org.id)}/device-backups`, tokens.otherViewer)).body.data).toEqual([]);
  });

  it('a device without device-backups:view cannot list them (403)', async () => {
    const res = await api.get(`${org()}/device-backups`, tokens.device);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('AUTH.002');
  });

  it('a backup past its 30 days is 404 and never listed, before TTL deletion removes it', async () => {
    const old = new Date(Date.now() - 31 * 86_400_000);
    const expired = await createBackup(
      scopeOf([tenant.org.id]),
      tenant.org.id,
      backupBody({}, { device: 'tablet-old' }),
      null,
      old,
    );
    expect((await api.get(`/v3/device-backups/${expired.id}`, tokens.viewer)).status).toBe(404);
    expect((await api.get(`/v3/device-backups/${expired.id}/content`, tokens.viewer)).status).toBe(404);
    const list = await api.get(`${org()}/device-backups?filter[device]=tablet-old`, tokens.viewer);
    expect(list.body.data).toEqual([]);
  });
});

describe('kept 30 whole days, listed a page at a time (issue 19, row 3)', () => {
  it('a backup made on day D is listed and counted through the end of day D + 30; the list reads its page and the day counts, not every live backup', async () => {
    const kept = await newTenant('Backups Kept', 0);
    const viewer = await api.token(kept.viewer);
    const scope = scopeOf([kept.org.id]);
    const day = 86_400_000;
    const today = Math.floor(Date.now() / day) * day;
    const make = (at: number, device: string) =>
      createBackup(scope, kept.org.id, backupBody({}, { device }), null, new Date(at));
    const gone = await make(today - 31 * day + day - 1, 'tablet-gone'); // the last moment of day D − 31
    const last = await make(today - 30 * day, 'tablet-last'); // the first moment of day D − 30
    expect(gone.expires_at).toBe(today / 1000);
    expect(last.expires_at).toBe((today + day) / 1000);
    const recent: string[] = [];
    for (let i = 0; i < 6; i++) recent.push((await make(Date.now() - i * 1000, 'tablet-now')).id);

    // Items each Query of the backups' partition read (grant evaluation's Queries are not the list's).
    const { result: page, scanned } = await queryScans(
      (pk) => pk.endsWith('#device-backups'),
      () => api.get(`${org(kept.org.id)}/device-backups?page[limit]=2`, viewer),
    );
    expect(page.status, page.text).toBe(200);
    expect(page.body.data.map((b: { id: string }) => b.id)).toEqual(recent.slice(0, 2));
    expect(page.body.meta.pagination.counts.resources).toBe(7);
    expect(scanned).toEqual([2]);

    const all = await idsByCursor(
      api,
      `${org(kept.org.id)}/device-backups?page[limit]=3&page[cursor]=`,
      viewer,
    );
    expect(all).toEqual([...recent, last.id]);
    expect(all).not.toContain(gone.id);
  });
});

describe('completing a backup is a declared transition (uploading → available)', () => {
  const transitions = async (id: string, token = tokens.admin) =>
    (await api.get(`/v3/device-backups/${id}`, token)).body.data.meta.allowed_transitions;
  const uploadedBy = async (token: string) => {
    const created = await api.request('POST', `${org()}/device-backups`, { token, body: backupBody() });
    const put = created.body.data.meta.upload;
    expect((await fetch(put.url, { method: 'PUT', headers: put.headers, body: file })).status).toBe(200);
    return { id: created.body.data.id as string, etag: created.headers.get('etag') ?? '' };
  };

  it('allowed_transitions shows complete to its uploader only, with the reasons it is refused to others', async () => {
    const own = await uploadedBy(tokens.admin);
    expect(await transitions(own.id)).toEqual([{ verb: 'complete', allowed: true, reasons: [] }]);
    expect(await transitions(own.id, tokens.viewer)).toEqual([
      {
        verb: 'complete',
        allowed: false,
        reasons: [
          'Needs the device-backups:create permission.',
          'Only the device that created the backup completes it.',
        ],
      },
    ]);
    const devices = await createAndUpload();
    expect(await transitions(devices)).toEqual([
      {
        verb: 'complete',
        allowed: false,
        reasons: ['Only the device that created the backup completes it.'],
      },
    ]);
  });

  it('a second completion is refused as a move from available (409 STATE.001), and allowed_transitions says so', async () => {
    const id = await createAndUpload();
    const done = await complete(id);
    expect(done.status).toBe(200);
    expect(done.body.data.meta.allowed_transitions).toEqual([
      { verb: 'complete', allowed: false, reasons: ['A backup available cannot be completed.'] },
    ]);
    const again = await complete(id);
    expect(again.status, again.text).toBe(409);
    expect(again.body.errors[0]).toMatchObject({
      code: 'STATE.001',
      meta: {
        state: 'available',
        verb: 'complete',
        allowed: [],
        reasons: ['A backup available cannot be completed.'],
      },
    });
  });

  it('a completion under a stale If-Match is 412 and the backup stays as it is', async () => {
    const { id, etag } = await uploadedBy(tokens.device);
    expect(etag).toMatch(/^"/);
    const done = await complete(id);
    expect(done.status).toBe(200);
    const late = await api.request('POST', `/v3/device-backups/${id}/complete`, {
      token: tokens.device,
      headers: { 'If-Match': etag },
    });
    expect(late.status, late.text).toBe(412);
    expect(late.body.errors[0]).toMatchObject({
      code: 'PRECONDITION.001',
      meta: { etag: done.headers.get('etag') },
    });
  });
});
