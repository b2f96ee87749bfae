/**
 * Images (issue 44) through the local adapter, DynamoDB Local and s3rver: the declared upload (size, type
 * and SHA-256 signed), `complete` pinning the original, who sees an image and its coordinates, the
 * collection's filters, soft delete, and delivery of the original and the three variants only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images } from '#functions/images/definitions';
import { getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import { deletedKey } from '#shared/data/trees';
import { createServiceAccountClient, grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { latestEvent } from '../support/event-stream';
import { imageBody, sha256, uploadImage } from '../support/images';
import { phoneJpeg } from '../support/photos';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let admin: string;
let viewer: string;
let otherAdmin: string;
/** Holds images:view but not the view of schemes (projects:view): a scheme's photos are hidden from it. */
let imagesOnly: string;
let schemeId: string;
let jpeg: Buffer;

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Images Org', 0), newTenant('Images Other Org', 0)]);
  [admin, viewer, otherAdmin] = await Promise.all([
    api.token(tenant.admin),
    api.token(tenant.viewer),
    api.token(other.admin),
  ]);
  const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/iam/roles`, {
    token: admin,
    body: { data: { type: 'roles', attributes: { name: 'Photos only', permissions: ['images:view'] } } },
  });
  expect(role.status, role.text).toBe(201);
  const client = await createServiceAccountClient('Photos only', [
    { org_id: tenant.org.id, role: role.body.data.id },
  ]);
  await grantRole(tenant.org.id, role.body.data.id, 'service_account', client.principalId);
  imagesOnly = await api.token(client);
  const scheme = await api.request('POST', `/v3/orgs/${tenant.org.id}/projects/schemes`, {
    token: admin,
    body: { data: { type: 'schemes', attributes: { name: 'Reservoir outlet' } } },
  });
  expect(scheme.status, scheme.text).toBe(201);
  schemeId = scheme.body.data.id;
  jpeg = await phoneJpeg(64, 48);
});
afterAll(() => api.close());

const org = () => `/v3/orgs/${tenant.org.id}`;
const stored = (id: string) => getItem<StoredResource>(images.keyOf(tenant.org.id, id), true);

describe('POST /v3/orgs/{org_id}/images and complete (issue 44: upload as documents do)', () => {
  it('answers 201 pending_upload with a presigned PUT that signs size, type and SHA-256', async () => {
    const res = await api.request('POST', `${org()}/images`, { token: admin, body: imageBody(jpeg) });
    expect(res.status, res.text).toBe(201);
    const { attributes, meta, relationships } = res.body.data;
    expect(attributes).toMatchObject({
      filename: 'photo.jpg',
      media_type: 'image/jpeg',
      size: jpeg.length,
      sha256: sha256(jpeg),
      status: 'pending_upload',
      location_visibility: 'restricted',
      variants_status: 'none',
      received_at: null,
    });
    expect(meta.upload.method).toBe('PUT');
    expect(meta.upload.headers).toEqual({
      'content-type': 'image/jpeg',
      'content-length': String(jpeg.length),
      'x-amz-checksum-sha256': sha256(jpeg),
    });
    expect(new URL(meta.upload.url).searchParams.get('X-Amz-SignedHeaders')).toContain(
      'x-amz-checksum-sha256',
    );
    expect(relationships.uploaded_by_service_account.data.id).toBe(tenant.admin.principalId);
    expect(meta.allowed_transitions).toEqual([{ verb: 'complete', allowed: true, reasons: [] }]);
  });

  it('complete pins the original: processing, received_at the server time, image.uploaded carrying the SHA-256', async () => {
    const before = Date.now();
    const { id, completed } = await uploadImage(api, tenant.org.id, admin, jpeg);
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body.data.attributes.status).toBe('processing');
    const received = Date.parse(completed.body.data.attributes.received_at);
    expect(received).toBeGreaterThanOrEqual(before - 1000);
    const record = await stored(id);
    expect(record?.object_key).toMatch(new RegExp(`^originals/${tenant.org.id}/${id}/`));
    const event = await latestEvent(tenant.org.id, 'image.uploaded', id);
    const data = event.data as { attributes: Record<string, unknown> };
    expect(data.attributes.sha256).toBe(sha256(jpeg));
    expect(data.attributes.received_at).toBe(completed.body.data.attributes.received_at);
    // The audit entry is made from the event: the SHA-256 and the server time are in it.
    const again = await api.request('POST', `/v3/images/${id}/complete`, { token: admin });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('STATE.001');
  });

  it('bytes that do not match the declared SHA-256 are a 409 and leave the image pending_upload, nothing written', async () => {
    const wrong = Buffer.from(jpeg);
    wrong[wrong.length - 10] = (wrong[wrong.length - 10] ?? 0) ^ 0xff;
    const { id, completed } = await uploadImage(api, tenant.org.id, admin, jpeg, { put: wrong });
    expect(completed.status, completed.text).toBe(409);
    expect(completed.body.errors[0].detail).toMatch(/not what was declared/);
    const record = await stored(id);
    expect(record?.attributes.status).toBe('pending_upload');
    expect(record?.version).toBe(1);
    expect(record?.object_key).toBeUndefined();
  });

  it('bytes of another size are a 409 as well (s3rver enforces no signed length: the copy is checked)', async () => {
    const longer = Buffer.concat([jpeg, Buffer.from('tail')]);
    const created = await api.request('POST', `${org()}/images`, { token: admin, body: imageBody(jpeg) });
    const { url } = created.body.data.meta.upload;
    await fetch(url, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: longer });
    const completed = await api.request('POST', `/v3/images/${created.body.data.id}/complete`, {
      token: admin,
    });
    expect(completed.status, completed.text).toBe(409);
    expect((await stored(created.body.data.id))?.attributes.status).toBe('pending_upload');
  });

  it.each([
    ['a media type that is not an image', { media_type: 'application/pdf' }, '/data/attributes/media_type'],
    ['over 25 MB', { size: 25 * 1024 * 1024 + 1 }, '/data/attributes/size'],
    ['a checksum that is not a base64 SHA-256', { sha256: 'abc' }, '/data/attributes/sha256'],
    [
      'a declared position out of range',
      { location: { latitude: 91, longitude: 0 } },
      '/data/attributes/location/latitude',
    ],
  ])('refuses %s with a 400 at the attribute, writing nothing', async (_what, attributes, pointer) => {
    const res = await api.request('POST', `${org()}/images`, {
      token: admin,
      body: imageBody(jpeg, attributes),
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer)).toContain(
      pointer,
    );
  });

  it('a subject or pair of another organisation is a 400 at the relationship (nothing of theirs is named)', async () => {
    const theirs = await uploadImage(api, other.org.id, otherAdmin, jpeg);
    const res = await api.request('POST', `${org()}/images`, {
      token: admin,
      body: imageBody(jpeg, {}, { pair_of: { data: { type: 'images', id: theirs.id } } }),
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe('/data/relationships/pair_of/data');
  });
});

describe('who sees an image (issue 44: tenant isolation, the subject, view-original)', () => {
  it("a foreign organisation's image id is 404 on every image route", async () => {
    const { id } = await uploadImage(api, other.org.id, otherAdmin, jpeg);
    for (const [method, path] of [
      ['GET', `/v3/images/${id}`],
      ['PATCH', `/v3/images/${id}`],
      ['DELETE', `/v3/images/${id}`],
      ['GET', `/v3/images/${id}/original`],
      ['GET', `/v3/images/${id}/variants/thumb`],
      ['POST', `/v3/images/${id}/complete`],
    ] as const) {
      const res = await api.request(method, path, {
        token: admin,
        ...(method === 'PATCH' && { body: { data: { type: 'images', id, attributes: { caption: 'x' } } } }),
      });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
    }
    expect((await api.get(`/v3/images/${id}`, otherAdmin)).status).toBe(200);
  });

  it('an image of a subject the caller may not see is 404 to them, and left out of their list', async () => {
    const { id } = await uploadImage(api, tenant.org.id, admin, jpeg, {
      relationships: { subject: { data: { type: 'schemes', id: schemeId } } },
    });
    expect((await api.get(`/v3/images/${id}`, viewer)).status).toBe(200);
    expect((await api.get(`/v3/images/${id}`, imagesOnly)).status).toBe(404);
    const listed = await api.get(`${org()}/images?filter[subject]=schemes:${schemeId}`, imagesOnly);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toEqual([]);
    const seen = await api.get(`${org()}/images?filter[subject]=schemes:${schemeId}`, viewer);
    expect(seen.body.data.map((i: { id: string }) => i.id)).toEqual([id]);
  });

  it('GET /original needs images:view-original (403 to a viewer), and answers 303 to a short-lived signed GET of the pinned bytes', async () => {
    const { id } = await uploadImage(api, tenant.org.id, admin, jpeg);
    expect((await api.get(`/v3/images/${id}/original`, viewer)).status).toBe(403);
    const res = await fetch(`${api.url}/v3/images/${id}/original`, {
      headers: { authorization: `Bearer ${admin}` },
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location') ?? '');
    expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300);
    const bytes = Buffer.from(await (await fetch(location)).arrayBuffer());
    expect(sha256(bytes)).toBe(sha256(jpeg));
  });
});

describe('PATCH and DELETE /v3/images/{image_id}', () => {
  it('changes caption, subject and visibility; the file and status are not the client’s to change', async () => {
    const { id } = await uploadImage(api, tenant.org.id, admin, jpeg);
    const res = await api.request('PATCH', `/v3/images/${id}`, {
      token: admin,
      body: {
        data: {
          type: 'images',
          id,
          attributes: { caption: 'Lid lifted', location_visibility: 'organisation' },
          relationships: { subject: { data: { type: 'schemes', id: schemeId } } },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes).toMatchObject({
      caption: 'Lid lifted',
      location_visibility: 'organisation',
    });
    expect(res.body.data.relationships.subject.data).toEqual({ type: 'schemes', id: schemeId });
    for (const attributes of [{ status: 'ready' }, { sha256: sha256(Buffer.from('x')) }]) {
      const refused = await api.request('PATCH', `/v3/images/${id}`, {
        token: admin,
        body: { data: { type: 'images', id, attributes } },
      });
      expect(refused.status, refused.text).toBe(400);
    }
  });

  it('delete is soft: 204, then 404 and out of the list, the record and its original kept for the legal hold', async () => {
    const { id } = await uploadImage(api, tenant.org.id, admin, jpeg);
    const before = await stored(id);
    const res = await api.request('DELETE', `/v3/images/${id}`, { token: admin });
    expect(res.status, res.text).toBe(204);
    expect((await api.get(`/v3/images/${id}`, admin)).status).toBe(404);
    const listed = await api.get(`${org()}/images`, admin);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((i: { id: string }) => i.id)).not.toContain(id);
    const kept = await getItem<StoredResource>(deletedKey(tenant.org.id, 'images', id), true);
    expect(kept?.object_key).toBe(before?.object_key);
    const holdDays = (Date.parse(String(kept?.hold_until)) - Date.now()) / 86_400_000;
    expect(Math.round(holdDays)).toBe(2557);
    await latestEvent(tenant.org.id, 'image.deleted', id);
  });
});
