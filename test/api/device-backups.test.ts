import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceAccountClient, grantRole } from '../../infra/local/records';
import { scopeOf } from '../../shared/data/scope';
import { createBackup } from '../../shared/resources/device-backups/writes';
import { startTestApi, type TestApi } from '../support/api';
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
    const kept = Date.parse(done.body.data.meta.expires_at) - Date.parse(done.body.data.meta.created_at);
    expect(kept).toBeGreaterThan(30 * 86_400_000 - 1000);
    expect(kept).toBeLessThanOrEqual(30 * 86_400_000);
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
