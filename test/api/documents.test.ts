/**
 * Folders and documents through the local adapter and s3rver: presigned upload and download round
 * trips, versions, and folder meta (document_count, size, path) kept right as things come and go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
let userToken: Record<string, string>;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Documents Org', 1);
  admin = await api.token(tenant.admin);
  const { grantRole } = await import('../../infra/local/records');
  const { startSession } = await import('../../shared/auth/sessions');
  const person = tenant.people[0]?.id ?? '';
  await grantRole(tenant.org.id, 'admin', 'user', person);
  userToken = { 'x-session-token': (await startSession(person)).token };
});
afterAll(() => api.close());

const folder = async (name: string, parent?: string, headers: Record<string, string> = {}) => {
  const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/folders`, {
    ...(Object.keys(headers).length > 0 ? { headers } : { token: admin }),
    body: {
      data: {
        type: 'folders',
        attributes: { name },
        ...(parent && { relationships: { parent: { data: { type: 'folders', id: parent } } } }),
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const meta = async (id: string) => (await api.get(`/v3/folders/${id}`, admin)).body.data.meta;

/** Creates a document, uploads `text` with the presigned PUT and completes it. */
const upload = async (folderId: string, name: string, text: string, type = 'text/plain') => {
  const created = await api.request('POST', `/v3/folders/${folderId}/documents`, {
    token: admin,
    body: {
      data: { type: 'documents', attributes: { name, content_type: type, size: Buffer.byteLength(text) } },
    },
  });
  expect(created.status, created.text).toBe(201);
  const { upload: put } = created.body.data.meta;
  const stored = await fetch(put.url, { method: 'PUT', headers: put.headers, body: text });
  expect(stored.status).toBe(200);
  const done = await api.request('POST', `/v3/document-versions/${put.version}/complete`, { token: admin });
  expect(done.status, done.text).toBe(200);
  return created.body.data.id as string;
};
const download = async (path: string) => {
  const res = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${admin}` } });
  return { status: res.status, text: await res.text(), redirected: res.redirected };
};

describe('GET /v3/folders/{folder_id}', () => {
  it('answers name and meta (document_count, size, path), with author, parent, organisation and scheme included', async () => {
    const root = await folder('Reservoir');
    const child = await folder('Drawings', root, userToken);
    await upload(child, 'outlet.txt', 'valve chamber VC-101');
    const res = await api.get(`/v3/folders/${child}?include=author,parent,organisation,scheme`, admin);
    expect(res.status, res.text).toBe(200);
    const { data, included } = res.body;
    expect(data.attributes).toEqual({ name: 'Drawings' });
    expect(data.meta).toMatchObject({ document_count: 1, size: 20, path: '/Reservoir/Drawings' });
    expect(data.meta.created_at).toBeTruthy();
    expect(data.relationships.parent.data.id).toBe(root);
    const user = included.find((r: { type: string }) => r.type === 'users');
    expect(Object.keys(user.attributes).sort()).toEqual(['email', 'identities', 'profile']);
    expect(Object.keys(user.attributes.profile).sort()).toEqual([
      'address',
      'contact',
      'personal',
      'settings',
      'work',
    ]);
    expect(Object.keys(user.attributes.profile.address)).toContain('three_word_address');
    expect(user.meta.grants).toEqual(['admin']);
    expect(user.relationships.organisations.data).toEqual([{ type: 'organisations', id: tenant.org.id }]);
    expect(included.map((r: { type: string }) => r.type).sort()).toEqual([
      'folders',
      'organisations',
      'users',
    ]);
  });

  it('a folder’s counts cover its whole subtree and follow uploads, new versions and deletes', async () => {
    const root = await folder('Counts');
    const sub = await folder('Sub', root);
    const doc = await upload(sub, 'a.txt', 'aaaa');
    await upload(root, 'b.txt', 'bb');
    expect(await meta(root)).toMatchObject({ document_count: 2, size: 6 });
    expect(await meta(sub)).toMatchObject({ document_count: 1, size: 4 });
    const version = await api.request('POST', `/v3/documents/${doc}/versions`, {
      token: admin,
      body: { data: { type: 'document-versions', attributes: { content_type: 'text/plain', size: 10 } } },
    });
    const put = version.body.data.meta.upload;
    await fetch(put.url, { method: 'PUT', headers: put.headers, body: '0123456789' });
    await api.request('POST', `/v3/document-versions/${version.body.data.id}/complete`, { token: admin });
    expect(await meta(root)).toMatchObject({ document_count: 2, size: 12 });
    expect((await api.request('DELETE', `/v3/documents/${doc}`, { token: admin })).status).toBe(204);
    expect(await meta(root)).toMatchObject({ document_count: 1, size: 2 });
  });
});

describe('documents: presigned upload and download', () => {
  it('round trip: the download (303 to a presigned GET) returns exactly what was uploaded', async () => {
    const f = await folder('Round trip');
    const doc = await upload(f, 'permit.txt', 'Permit TW0100001 granted');
    const res = await download(`/v3/documents/${doc}/content`);
    expect(res.status).toBe(200);
    expect(res.redirected).toBe(true);
    expect(res.text).toBe('Permit TW0100001 granted');
  });

  it('the declared size and content type are enforced: completing checks what S3 holds (409 on any difference)', async () => {
    // Real S3 refuses a body that does not match the signed content-length and content-type; s3rver stores
    // it, so this proves the service's own check on completion.
    const f = await folder('Enforced');
    const created = await api.request('POST', `/v3/folders/${f}/documents`, {
      token: admin,
      body: {
        data: { type: 'documents', attributes: { name: 'x.pdf', content_type: 'application/pdf', size: 5 } },
      },
    });
    const put = created.body.data.meta.upload;
    const complete = () =>
      api.request('POST', `/v3/document-versions/${put.version}/complete`, { token: admin });
    const early = await complete();
    expect(early.status).toBe(409);
    expect(early.body.errors[0].detail).toMatch(/Nothing has been uploaded/);
    expect((await download(`/v3/documents/${created.body.data.id}/content`)).status).toBe(409);
    await fetch(put.url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: '123456' });
    expect((await complete()).body.errors[0].detail).toMatch(
      /6 bytes of application\/pdf; 5 bytes of application\/pdf were declared/,
    );
    await fetch(put.url, {
      method: 'PUT',
      headers: { ...put.headers, 'content-type': 'text/html' },
      body: '12345',
    });
    expect((await complete()).body.errors[0].detail).toMatch(/5 bytes of text\/html/);
    await fetch(put.url, { method: 'PUT', headers: put.headers, body: '%PDF-' });
    expect((await complete()).status).toBe(200);
  });

  it('versions are kept: each downloads what it held; completing twice is 409', async () => {
    const f = await folder('Versions');
    const doc = await upload(f, 'rules.txt', 'v1 rules');
    const v2 = await api.request('POST', `/v3/documents/${doc}/versions`, {
      token: admin,
      body: { data: { type: 'document-versions', attributes: { content_type: 'text/plain', size: 8 } } },
    });
    const put = v2.body.data.meta.upload;
    await fetch(put.url, { method: 'PUT', headers: put.headers, body: 'v2 rules' });
    expect(
      (await api.request('POST', `/v3/document-versions/${v2.body.data.id}/complete`, { token: admin }))
        .status,
    ).toBe(200);
    expect(
      (await api.request('POST', `/v3/document-versions/${v2.body.data.id}/complete`, { token: admin }))
        .status,
    ).toBe(409);
    const versions = await api.get(`/v3/documents/${doc}/versions`, admin);
    expect(versions.body.data.map((v: { attributes: { number: number } }) => v.attributes.number)).toEqual([
      2, 1,
    ]);
    expect((await download(`/v3/documents/${doc}/content`)).text).toBe('v2 rules');
    expect((await download(`/v3/document-versions/${versions.body.data[1].id}/content`)).text).toBe(
      'v1 rules',
    );
  });

  it('bad declarations are 400 with pointers; another organisation’s document is 404', async () => {
    const f = await folder('Bad');
    const res = await api.request('POST', `/v3/folders/${f}/documents`, {
      token: admin,
      body: { data: { type: 'documents', attributes: { name: '', content_type: 'pdf', size: 0 } } },
    });
    expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
      '/data/attributes/content_type',
      '/data/attributes/name',
      '/data/attributes/size',
    ]);
    const doc = await upload(f, 'mine.txt', 'mine');
    const other = await newTenant('Documents Other', 0);
    const token = await api.token(other.admin);
    expect((await api.get(`/v3/documents/${doc}`, token)).status).toBe(404);
    expect((await api.get(`/v3/documents/${doc}/content`, token)).status).toBe(404);
  });

  it('a name that is not one line of well-formed text is a 400 at creation (issue 15: a lone surrogate reached the S3 SDK, 500)', async () => {
    const f = await folder('Odd names');
    for (const name of ['\ud800.pdf', 'a\udc00.pdf', 'nul\u0000.pdf', 'bell\u0007.pdf', 'two\nlines.pdf']) {
      const res = await api.request('POST', `/v3/folders/${f}/documents`, {
        token: admin,
        body: {
          data: { type: 'documents', attributes: { name, content_type: 'application/pdf', size: 10 } },
        },
      });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/name' });
    }
    expect((await meta(f)).document_count).toBe(0);
  });

  it('documents take comments', async () => {
    const f = await folder('Commented');
    const doc = await upload(f, 'c.txt', 'c');
    const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/comments`, {
      token: admin,
      body: {
        data: { type: 'comments', attributes: { body: 'Checked', subject: { type: 'documents', id: doc } } },
      },
    });
    expect(res.status, res.text).toBe(201);
  });
});

describe('folder tree', () => {
  it('renaming or moving a folder changes the path of its whole subtree; counts move with it', async () => {
    const a = await folder('A');
    const b = await folder('B');
    const sub = await folder('Sub', a);
    const leaf = await folder('Leaf', sub);
    await upload(leaf, 'l.txt', 'leaf');
    const move = await api.request('PATCH', `/v3/folders/${sub}`, {
      token: admin,
      body: {
        data: { type: 'folders', id: sub, relationships: { parent: { data: { type: 'folders', id: b } } } },
      },
    });
    expect(move.status, move.text).toBe(200);
    expect((await meta(leaf)).path).toBe('/B/Sub/Leaf');
    expect(await meta(a)).toMatchObject({ document_count: 0, size: 0 });
    expect(await meta(b)).toMatchObject({ document_count: 1, size: 4 });
    await api.request('PATCH', `/v3/folders/${b}`, {
      token: admin,
      body: { data: { type: 'folders', id: b, attributes: { name: 'Bee' } } },
    });
    expect((await meta(leaf)).path).toBe('/Bee/Sub/Leaf');
  });

  it('moving a folder into itself or its own subfolder is 409', async () => {
    const top = await folder('Top');
    const inner = await folder('Inner', top);
    const res = await api.request('PATCH', `/v3/folders/${top}`, {
      token: admin,
      body: {
        data: {
          type: 'folders',
          id: top,
          relationships: { parent: { data: { type: 'folders', id: inner } } },
        },
      },
    });
    expect(res.status).toBe(409);
  });

  it('deleting a non-empty folder is 409 unless recursive, which removes the subtree, its documents and files', async () => {
    const top = await folder('Doomed');
    const inner = await folder('Inner', top);
    const doc = await upload(inner, 'gone.txt', 'gone');
    const refused = await api.request('DELETE', `/v3/folders/${top}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].detail).toMatch(/1 subfolders and 1 documents/);
    const version = (await api.get(`/v3/documents/${doc}`, admin)).body.data.relationships.current_version
      .data.id;
    const fileUrl =
      (
        await fetch(`${api.url}/v3/document-versions/${version}/content`, {
          headers: { authorization: `Bearer ${admin}` },
          redirect: 'manual',
        })
      ).headers.get('location') ?? '';
    expect((await api.request('DELETE', `/v3/folders/${top}?recursive=true`, { token: admin })).status).toBe(
      204,
    );
    expect((await api.get(`/v3/folders/${inner}`, admin)).status).toBe(404);
    expect((await api.get(`/v3/documents/${doc}`, admin)).status).toBe(404);
    expect((await fetch(fileUrl)).status).toBe(404);
    expect((await api.request('DELETE', `/v3/folders/${top}?force=1`, { token: admin })).status).toBe(400);
  });
});
