/**
 * Folders and documents through the local adapter and s3rver: presigned upload and download round
 * trips, versions, and folder meta (document_count, size, path) kept right as things come and go.
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentMoves, folders, subfolderCountKey } from '#functions/documents/definitions';
import { documentVersions } from '#functions/documents/versions/definition';
import { dynamodb, documents as tableClient, tableName } from '#shared/data/clients';
import { getItem } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { type ApiResponse, startTestApi, type TestApi } from '../support/api';
import { deliverEvents, latestEvent } from '../support/event-stream';
import { createFolder } from '../support/folders';
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
  const { startSession } = await import('#shared/auth/sessions');
  const person = tenant.people[0]?.id ?? '';
  await grantRole(tenant.org.id, 'admin', 'user', person);
  userToken = { 'x-session-token': (await startSession(person)).token };
});
afterAll(() => api.close());

const folder = (name: string, parent?: string, headers: Record<string, string> = {}) =>
  createFolder(
    api,
    tenant.org.id,
    Object.keys(headers).length > 0 ? { headers } : { token: admin },
    name,
    parent,
  );
const meta = async (id: string) => (await api.get(`/v3/folders/${id}`, admin)).body.data.meta;
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');
/** A document-versions body declaring `text`. */
const versionOf = (text: string, type = 'text/plain') => ({
  data: {
    type: 'document-versions',
    attributes: { content_type: type, size: Buffer.byteLength(text), checksum: sha256(text) },
  },
});

/** Creates a document, uploads `text` with the presigned PUT and completes it. */
const upload = async (folderId: string, name: string, text: string, type = 'text/plain') => {
  const created = await api.request('POST', `/v3/folders/${folderId}/documents`, {
    token: admin,
    body: {
      data: {
        type: 'documents',
        attributes: { name, content_type: type, size: Buffer.byteLength(text), checksum: sha256(text) },
      },
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
    expect(Object.keys(user.attributes).sort()).toEqual(['email', 'identities', 'profile', 'status']);
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
      body: versionOf('0123456789'),
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
        data: {
          type: 'documents',
          attributes: { name: 'x.pdf', content_type: 'application/pdf', size: 5, checksum: sha256('%PDF-') },
        },
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
      /The upload \(6 bytes of application\/pdf, SHA-256 \S+\) is not what was declared \(5 bytes of application\/pdf/,
    );
    await fetch(put.url, {
      method: 'PUT',
      headers: { ...put.headers, 'content-type': 'text/html' },
      body: '%PDF-',
    });
    expect((await complete()).body.errors[0].detail).toMatch(/\(5 bytes of text\/html/);
    // The declared size and type, other bytes: only the checksum tells them apart.
    await fetch(put.url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: '%PDF+' });
    const swapped = await complete();
    expect(swapped.status).toBe(409);
    expect(swapped.body.errors[0].detail).toContain(`SHA-256 ${sha256('%PDF+')}) is not what was declared`);
    await fetch(put.url, { method: 'PUT', headers: put.headers, body: '%PDF-' });
    const done = await complete();
    expect(done.status, done.text).toBe(200);
    expect(done.body.data.attributes).toMatchObject({ size: 5, checksum: sha256('%PDF-') });
  });

  it('versions are kept: each downloads what it held; completing twice is 409', async () => {
    const f = await folder('Versions');
    const doc = await upload(f, 'rules.txt', 'v1 rules');
    const v2 = await api.request('POST', `/v3/documents/${doc}/versions`, {
      token: admin,
      body: versionOf('v2 rules'),
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
      '/data/attributes/checksum',
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

describe('documents: an accepted file cannot be swapped (issue 15, finding 2)', () => {
  const pointers = (res: { body: { errors: { source: { pointer: string } }[] } }) =>
    res.body.errors.map((e) => e.source.pointer);

  it('every presigned upload (document create, new version) signs the client’s SHA-256 as a header', async () => {
    const f = await folder('Signed');
    const created = await api.request('POST', `/v3/folders/${f}/documents`, {
      token: admin,
      body: {
        data: {
          type: 'documents',
          attributes: { name: 's.txt', content_type: 'text/plain', size: 3, checksum: sha256('one') },
        },
      },
    });
    const version = await api.request('POST', `/v3/documents/${created.body.data.id}/versions`, {
      token: admin,
      body: versionOf('two'),
    });
    expect(version.body.data.attributes).toMatchObject({ status: 'pending', checksum: sha256('two') });
    for (const [upload, text] of [
      [created.body.data.meta.upload, 'one'],
      [version.body.data.meta.upload, 'two'],
    ] as const) {
      const url = new URL(upload.url);
      expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('x-amz-checksum-sha256');
      // Hoisted into the query string, S3 would sign the checksum and then ignore it.
      expect(
        [...url.searchParams.keys()].filter((k) => k.toLowerCase().startsWith('x-amz-checksum')),
      ).toEqual([]);
      expect(upload.headers['x-amz-checksum-sha256']).toBe(sha256(text));
    }
  });

  it('a missing or malformed checksum is 400 at /data/attributes/checksum, on create and on a new version', async () => {
    const f = await folder('Checksums');
    const doc = await upload(f, 'c.txt', 'c');
    const bad = [
      undefined,
      'abc',
      createHash('sha256').update('x').digest('hex'),
      `${sha256('x').slice(0, 42)}B=`,
    ];
    for (const checksum of bad) {
      const attributes = { content_type: 'text/plain', size: 1, ...(checksum !== undefined && { checksum }) };
      const create = await api.request('POST', `/v3/folders/${f}/documents`, {
        token: admin,
        body: { data: { type: 'documents', attributes: { name: 'n.txt', ...attributes } } },
      });
      const version = await api.request('POST', `/v3/documents/${doc}/versions`, {
        token: admin,
        body: { data: { type: 'document-versions', attributes } },
      });
      for (const res of [create, version]) {
        expect(res.status).toBe(400);
        expect(pointers(res)).toEqual(['/data/attributes/checksum']);
        expect(res.body.errors[0].detail).toMatch(/SHA-256 of the file, base64-encoded/);
      }
    }
    expect((await api.get(`/v3/documents/${doc}`, admin)).body.data.attributes.version_count).toBe(1);
  });

  it('after completion, other bytes PUT through the same, still valid URL change nothing: both downloads serve the accepted file', async () => {
    const f = await folder('Swap');
    const created = await api.request('POST', `/v3/folders/${f}/documents`, {
      token: admin,
      body: {
        data: {
          type: 'documents',
          attributes: {
            name: 'method.txt',
            content_type: 'text/plain',
            size: Buffer.byteLength('accepted method statement'),
            checksum: sha256('accepted method statement'),
          },
        },
      },
    });
    const put = created.body.data.meta.upload;
    expect(
      (await fetch(put.url, { method: 'PUT', headers: put.headers, body: 'accepted method statement' }))
        .status,
    ).toBe(200);
    const done = await api.request('POST', `/v3/document-versions/${put.version}/complete`, { token: admin });
    expect(done.status, done.text).toBe(200);
    // AWS refuses these PUTs (the checksum is signed); s3rver stores them, as an engine ignoring signed
    // headers would: what the client sees must not depend on it.
    for (const headers of [put.headers, { 'content-type': 'text/plain' }]) {
      const again = await fetch(put.url, { method: 'PUT', headers, body: 'SWAPPED! method statement' });
      expect(again.status).toBe(200);
    }
    const doc = created.body.data.id;
    for (const path of [`/v3/documents/${doc}/content`, `/v3/document-versions/${put.version}/content`]) {
      const res = await download(path);
      expect(res.status).toBe(200);
      expect(res.text).toBe('accepted method statement');
    }
    expect(
      (await api.request('POST', `/v3/document-versions/${put.version}/complete`, { token: admin })).status,
    ).toBe(409);
    expect((await download(`/v3/documents/${doc}/content`)).text).toBe('accepted method statement');
  });

  it('the accepted file is a copy at a key no upload URL names, and every key holds ids only', async () => {
    const f = await folder('Keys');
    const name = '../../etc/passwd';
    const created = await api.request('POST', `/v3/folders/${f}/documents`, {
      token: admin,
      body: {
        data: {
          type: 'documents',
          attributes: { name, content_type: 'text/plain', size: 4, checksum: sha256('keys') },
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    const put = created.body.data.meta.upload;
    await fetch(put.url, { method: 'PUT', headers: put.headers, body: 'keys' });
    await api.request('POST', `/v3/document-versions/${put.version}/complete`, { token: admin });
    const doc = created.body.data.id;
    const uploadPath = new URL(put.url).pathname.split('/').slice(2).join('/');
    expect(uploadPath).toBe(`uploads/${tenant.org.id}/${doc}/${put.version}`);
    const stored = await getItem<StoredResource>(documentVersions.keyOf(tenant.org.id, put.version));
    const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
    expect(stored?.object_key).toMatch(new RegExp(`^${tenant.org.id}/${doc}/${put.version}/${uuid}$`));
    const location = (
      await fetch(`${api.url}/v3/documents/${doc}/content`, {
        headers: { authorization: `Bearer ${admin}` },
        redirect: 'manual',
      })
    ).headers.get('location');
    expect(new URL(location ?? '').pathname).toMatch(new RegExp(`/${stored?.object_key}$`));
    // Keys are the service's own: not served.
    expect(created.body.data.attributes.object_key).toBeUndefined();
  });

  it('the download is named after the document, whatever it is called, in a header S3 can send', async () => {
    const f = await folder('Names');
    const name = 'Plan "A" / rev 2 – été (draft) it\'s*.pdf';
    const doc = await upload(f, name, 'named', 'application/pdf');
    const res = await fetch(`${api.url}/v3/documents/${doc}/content`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.status).toBe(200);
    const disposition = res.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(
      /^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!#$&+.^_`|~-]+$/,
    );
    const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)?.[1] ?? '';
    expect(decodeURIComponent(encoded)).toBe(name);
  });
});

describe('completing a version is a declared transition (pending → available) that answers its document', () => {
  /** A document whose first version is uploaded and not yet completed. */
  const uploaded = async (name: string, text: string) => {
    const f = await folder(name);
    const created = await api.request('POST', `/v3/folders/${f}/documents`, {
      token: admin,
      body: { data: { type: 'documents', attributes: { name, ...versionOf(text).data.attributes } } },
    });
    expect(created.status, created.text).toBe(201);
    const put = created.body.data.meta.upload;
    expect((await fetch(put.url, { method: 'PUT', headers: put.headers, body: text })).status).toBe(200);
    return { folder: f, document: created.body.data.id as string, version: put.version as string };
  };
  const complete = (version: string, headers: Record<string, string> = {}) =>
    api.request('POST', `/v3/document-versions/${version}/complete`, { token: admin, headers });
  const read = (version: string, token = admin) => api.get(`/v3/document-versions/${version}`, token);

  it('a pending version offers complete to a holder of documents:manage and says why not to a viewer', async () => {
    const { version } = await uploaded('Offered', 'offered');
    expect((await read(version)).body.data.meta.allowed_transitions).toEqual([
      { verb: 'complete', allowed: true, reasons: [] },
    ]);
    const viewer = await api.token(tenant.viewer);
    const seen = await read(version, viewer);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.data.meta.allowed_transitions).toEqual([
      { verb: 'complete', allowed: false, reasons: ['Needs the documents:manage permission.'] },
    ]);
    const refused = await api.request('POST', `/v3/document-versions/${version}/complete`, { token: viewer });
    expect(refused.status, refused.text).toBe(403);
    expect((await read(version)).body.data.attributes.status).toBe('pending');
  });

  it('the move answers the document it made current, and is one event with from and to', async () => {
    const { document, version } = await uploaded('Answered', 'answered');
    const done = await complete(version);
    expect(done.status, done.text).toBe(200);
    expect(done.body.data).toMatchObject({
      type: 'documents',
      id: document,
      attributes: { status: 'available', size: 8, checksum: sha256('answered') },
      relationships: { current_version: { data: { type: 'document-versions', id: version } } },
    });
    expect(done.headers.get('etag')).toBe(
      (await api.get(`/v3/documents/${document}`, admin)).headers.get('etag'),
    );
    const event = await latestEvent(tenant.org.id, 'document-version.completed', version);
    expect(event.data).toMatchObject({ transition: { verb: 'complete', from: 'pending', to: 'available' } });
  });

  it('completing an available version is 409 STATE.001 with its state and reasons, and moves no tally', async () => {
    const { folder: f, version } = await uploaded('Twice', 'twice');
    expect((await complete(version)).status).toBe(200);
    const counted = await meta(f);
    expect((await read(version)).body.data.meta.allowed_transitions).toEqual([
      { verb: 'complete', allowed: false, reasons: ['A version available cannot be completed.'] },
    ]);
    const again = await complete(version);
    expect(again.status, again.text).toBe(409);
    expect(again.body.errors[0]).toMatchObject({
      code: 'STATE.001',
      meta: {
        state: 'available',
        verb: 'complete',
        allowed: [],
        reasons: ['A version available cannot be completed.'],
      },
    });
    expect(await meta(f)).toEqual(counted);
  });

  it('a completion under a stale If-Match (the version’s tag) is 412 with the current tag', async () => {
    const { version } = await uploaded('Stale', 'stale');
    const etag = (await read(version)).headers.get('etag') ?? '';
    expect(etag).toMatch(/^"/);
    expect((await complete(version, { 'If-Match': etag })).status).toBe(200);
    const late = await complete(version, { 'If-Match': etag });
    expect(late.status, late.text).toBe(412);
    expect(late.body.errors[0]).toMatchObject({
      code: 'PRECONDITION.001',
      meta: { etag: (await read(version)).headers.get('etag') },
    });
  });
});

describe('folder tree', () => {
  it('renaming or moving a folder changes the path of its whole subtree (a rename’s reaches the subfolders from the stream); counts move with it', async () => {
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
    const renamed = await api.request('PATCH', `/v3/folders/${b}`, {
      token: admin,
      body: { data: { type: 'folders', id: b, attributes: { name: 'Bee' } } },
    });
    expect(renamed.body.data.meta.path).toBe('/Bee');
    await deliverEvents(tenant.org.id);
    expect((await meta(sub)).path).toBe('/Bee/Sub');
    expect((await meta(leaf)).path).toBe('/Bee/Sub/Leaf');
    // The consumer's own two writes (Sub, Leaf) are the last events: handed over, they write nothing more.
    expect(await deliverEvents(tenant.org.id)).toBe(2);
    expect(await deliverEvents(tenant.org.id)).toBe(0);
  });

  it('a rename reaches every subfolder however many: more than one transaction holds, in several', async () => {
    const top = await folder('Many');
    const subs = [];
    for (let i = 0; i < 60; i++) subs.push(await folder(`Sub ${i}`, top));
    const renamed = await api.request('PATCH', `/v3/folders/${top}`, {
      token: admin,
      body: { data: { type: 'folders', id: top, attributes: { name: 'Lots' } } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    await deliverEvents(tenant.org.id);
    const listed = await api.get(
      `/v3/orgs/${tenant.org.id}/folders?filter[parent]=${top}&page[limit]=100`,
      admin,
    );
    const paths = listed.body.data.map((f: { meta: { path: string } }) => f.meta.path).sort();
    expect(paths).toEqual(subs.map((_, i) => `/Lots/Sub ${i}`).sort());
  });

  it('moving a document between folders moves its count up one lineage and down the other', async () => {
    const left = await folder('Left');
    const right = await folder('Right');
    const deep = await folder('Deep', right);
    const doc = await upload(left, 'm.txt', 'moved');
    const moved = await api.request('PATCH', `/v3/documents/${doc}`, {
      token: admin,
      body: {
        data: {
          type: 'documents',
          id: doc,
          relationships: { folder: { data: { type: 'folders', id: deep } } },
        },
      },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(await meta(left)).toMatchObject({ document_count: 0, size: 0 });
    expect(await meta(right)).toMatchObject({ document_count: 1, size: 5 });
    expect(await meta(deep)).toMatchObject({ document_count: 1, size: 5 });
  });

  it('a recursive delete takes the subtree’s totals from every ancestor', async () => {
    const top = await folder('Keeps');
    const middle = await folder('Middle', top);
    const gone = await folder('Gone', middle);
    await upload(middle, 'stays.txt', 'st');
    await upload(gone, 'goes.txt', 'goes');
    expect(await meta(top)).toMatchObject({ document_count: 2, size: 6 });
    expect((await api.request('DELETE', `/v3/folders/${gone}?recursive=true`, { token: admin })).status).toBe(
      204,
    );
    expect(await meta(top)).toMatchObject({ document_count: 1, size: 2 });
    expect(await meta(middle)).toMatchObject({ document_count: 1, size: 2 });
  });

  it('a document write that read its folder before the folder moved is refused: it would count in the old ancestors', async () => {
    const from = await folder('From');
    const to = await folder('To');
    const inner = await folder('Inner', from);
    const before = await getItem<StoredResource>(folders.keyOf(tenant.org.id, inner));
    const move = await api.request('PATCH', `/v3/folders/${inner}`, {
      token: admin,
      body: {
        data: {
          type: 'folders',
          id: inner,
          relationships: { parent: { data: { type: 'folders', id: to } } },
        },
      },
    });
    expect(move.status, move.text).toBe(200);
    const write = commit(
      scopeOf([tenant.org.id]),
      documentMoves(before as StoredResource, { documents: 1, bytes: 9 }),
    );
    await expect(write).rejects.toMatchObject({ code: 'stale' });
    expect(await meta(from)).toMatchObject({ document_count: 0, size: 0 });
    expect(await meta(to)).toMatchObject({ document_count: 0, size: 0 });
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

/**
 * Sends `request` and holds its first TransactWriteItems naming `marker` (with a `Delete` when `deleting`)
 * just before it commits, runs `during`, then lets it go: the steps of a race in a fixed order.
 */
const holdingCommit = async (
  marker: string,
  request: () => Promise<ApiResponse>,
  during: () => Promise<void>,
  deleting = false,
) => {
  const name = `hold-${marker}`;
  let arrived!: () => void;
  const atCommit = new Promise<void>((done) => {
    arrived = done;
  });
  let release!: () => void;
  const released = new Promise<void>((done) => {
    release = done;
  });
  let held = false;
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      const input = JSON.stringify((args as { input?: unknown }).input ?? {});
      if (
        !held &&
        context.commandName === 'TransactWriteItemsCommand' &&
        input.includes(marker) &&
        (!deleting || input.includes('"Delete"'))
      ) {
        held = true;
        arrived();
        await released;
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    const answer = request();
    await Promise.race([atCommit, answer]);
    expect(held, 'the request reached its commit').toBe(true);
    await during();
    release();
    return await answer;
  } finally {
    release();
    dynamodb.middlewareStack.remove(name);
  }
};

const moveDocument = (id: string, to: string) =>
  api.request('PATCH', `/v3/documents/${id}`, {
    token: admin,
    body: {
      data: { type: 'documents', id, relationships: { folder: { data: { type: 'folders', id: to } } } },
    },
  });

describe('a document filed while an ancestor folder is being deleted is never orphaned (issue 39, 10c)', () => {
  it('created in a subfolder between the deletion’s read and its commit: the deletion is 409 and deletes nothing; deleted again, the document goes with the tree', async () => {
    const top = await folder('Deleting');
    const inner = await folder('Inner', top);
    await upload(inner, 'old.txt', 'old');
    let late = '';
    const deleted = await holdingCommit(
      top,
      () => api.request('DELETE', `/v3/folders/${top}?recursive=true`, { token: admin }),
      async () => {
        late = await upload(inner, 'late.txt', 'late');
      },
      true,
    );
    expect(deleted.status, deleted.text).toBe(409);
    expect(deleted.body.errors[0]).toMatchObject({ code: 'CONFLICT.001' });
    expect(deleted.body.errors[0].detail).toMatch(/nothing was deleted/);
    const document = await api.get(`/v3/documents/${late}`, admin);
    expect(document.status).toBe(200);
    expect(
      (await api.get(`/v3/folders/${document.body.data.relationships.folder.data.id}`, admin)).status,
    ).toBe(200);
    expect(await meta(top)).toMatchObject({ document_count: 2 });
    const again = await api.request('DELETE', `/v3/folders/${top}?recursive=true`, { token: admin });
    expect(again.status, again.text).toBe(204);
    expect((await api.get(`/v3/documents/${late}`, admin)).status).toBe(404);
  });

  it('moved into a subfolder between the deletion’s read and its commit: the deletion is 409 and the document keeps its folder', async () => {
    const top = await folder('Deleting too');
    const inner = await folder('Inner', top);
    const elsewhere = await folder('Elsewhere');
    const doc = await upload(elsewhere, 'moving.txt', 'moving');
    const deleted = await holdingCommit(
      top,
      () => api.request('DELETE', `/v3/folders/${top}?recursive=true`, { token: admin }),
      async () => {
        const moved = await moveDocument(doc, inner);
        expect(moved.status, moved.text).toBe(200);
      },
      true,
    );
    expect(deleted.status, deleted.text).toBe(409);
    const document = await api.get(`/v3/documents/${doc}`, admin);
    expect(document.body.data.relationships.folder.data.id).toBe(inner);
    expect((await api.get(`/v3/folders/${inner}`, admin)).status).toBe(200);
  });

  it('a document not yet uploaded, moved into a folder the deletion removes before the move commits: the move is 409, the document stays where it was', async () => {
    const top = await folder('Gone before the move');
    const elsewhere = await folder('Stays');
    const pending = await api.request('POST', `/v3/folders/${elsewhere}/documents`, {
      token: admin,
      body: {
        data: {
          type: 'documents',
          attributes: { name: 'pending.txt', content_type: 'text/plain', size: 1, checksum: sha256('p') },
        },
      },
    });
    expect(pending.status, pending.text).toBe(201);
    const doc = pending.body.data.id as string;
    const moved = await holdingCommit(
      doc,
      () => moveDocument(doc, top),
      async () => {
        const deleted = await api.request('DELETE', `/v3/folders/${top}?recursive=true`, { token: admin });
        expect(deleted.status, deleted.text).toBe(204);
      },
    );
    expect(moved.status, moved.text).toBe(409);
    const document = await api.get(`/v3/documents/${doc}`, admin);
    expect(document.body.data.relationships.folder.data.id).toBe(elsewhere);
  });
});

const moveFolder = (id: string, to: string) =>
  api.request('PATCH', `/v3/folders/${id}`, {
    token: admin,
    body: {
      data: { type: 'folders', id, relationships: { parent: { data: { type: 'folders', id: to } } } },
    },
  });
const createFolderNamed = (name: string, parent: string) =>
  api.request('POST', `/v3/orgs/${tenant.org.id}/folders`, {
    token: admin,
    body: {
      data: {
        type: 'folders',
        attributes: { name },
        relationships: { parent: { data: { type: 'folders', id: parent } } },
      },
    },
  });

describe('a subfolder made or moved under a folder being deleted is never orphaned (issue 39, 10c)', () => {
  it('made between the deletion’s read and its commit: the deletion is 409 and deletes nothing; deleted again, the subfolder goes with the tree', async () => {
    const top = await folder('Deleting subfolders');
    const inner = await folder('Inner', top);
    let late = '';
    const deleted = await holdingCommit(
      top,
      () => api.request('DELETE', `/v3/folders/${top}?recursive=true`, { token: admin }),
      async () => {
        late = await folder('Late', inner);
      },
      true,
    );
    expect(deleted.status, deleted.text).toBe(409);
    expect(deleted.body.errors[0]).toMatchObject({ code: 'CONFLICT.001' });
    expect(deleted.body.errors[0].detail).toMatch(/nothing was deleted/);
    expect((await api.get(`/v3/folders/${top}`, admin)).status).toBe(200);
    expect((await api.get(`/v3/folders/${inner}`, admin)).status).toBe(200);
    expect((await meta(late)).path).toBe('/Deleting subfolders/Inner/Late');
    const again = await api.request('DELETE', `/v3/folders/${top}?recursive=true`, { token: admin });
    expect(again.status, again.text).toBe(204);
    expect((await api.get(`/v3/folders/${late}`, admin)).status).toBe(404);
  });

  it('made in an empty folder whose (plain) deletion is between its read and its commit: the deletion is 409, the folder and its subfolder stay', async () => {
    const empty = await folder('Empty for now');
    let late = '';
    const deleted = await holdingCommit(
      empty,
      () => api.request('DELETE', `/v3/folders/${empty}`, { token: admin }),
      async () => {
        late = await folder('Late', empty);
      },
      true,
    );
    expect(deleted.status, deleted.text).toBe(409);
    expect((await api.get(`/v3/folders/${empty}`, admin)).status).toBe(200);
    expect((await api.get(`/v3/folders/${late}`, admin)).body.data.relationships.parent.data.id).toBe(empty);
  });

  it('moved in (with a subtree of its own) between the deletion’s read and its commit: the deletion is 409 and the moved folder keeps its new parent', async () => {
    const top = await folder('Deleting, moved into');
    const inner = await folder('Inner', top);
    const mover = await folder('Mover', await folder('Elsewhere'));
    const carried = await folder('Carried', mover);
    const deleted = await holdingCommit(
      top,
      () => api.request('DELETE', `/v3/folders/${top}?recursive=true`, { token: admin }),
      async () => {
        const moved = await moveFolder(mover, inner);
        expect(moved.status, moved.text).toBe(200);
      },
      true,
    );
    expect(deleted.status, deleted.text).toBe(409);
    expect((await api.get(`/v3/folders/${inner}`, admin)).status).toBe(200);
    expect((await api.get(`/v3/folders/${mover}`, admin)).body.data.relationships.parent.data.id).toBe(inner);
    expect((await meta(carried)).path).toBe('/Deleting, moved into/Inner/Mover/Carried');
  });

  it('made or moved in after the deletion committed: refused, its parent gone; nothing is left without a parent', async () => {
    const top = await folder('Gone before the subfolder');
    const elsewhere = await folder('Still here');
    const mover = await folder('Not moved', elsewhere);
    const created = await holdingCommit(
      'Too late',
      () => createFolderNamed('Too late', top),
      async () => {
        const deleted = await api.request('DELETE', `/v3/folders/${top}?recursive=true`, { token: admin });
        expect(deleted.status, deleted.text).toBe(204);
      },
    );
    expect(created.status, created.text).toBe(409);
    const named = await api.get(
      `/v3/orgs/${tenant.org.id}/folders?filter[name]=${encodeURIComponent('Too late')}`,
      admin,
    );
    expect(named.body.data).toEqual([]);

    const target = await folder('Gone before the move');
    const moved = await holdingCommit(
      mover,
      () => moveFolder(mover, target),
      async () => {
        const deleted = await api.request('DELETE', `/v3/folders/${target}?recursive=true`, { token: admin });
        expect(deleted.status, deleted.text).toBe(204);
      },
    );
    expect(moved.status, moved.text).toBe(409);
    expect((await api.get(`/v3/folders/${mover}`, admin)).body.data.relationships.parent.data.id).toBe(
      elsewhere,
    );
  });

  it('the count of subfolders follows every create, move and delete: a folder emptied by them deletes without ?recursive', async () => {
    const a = await folder('Counted A');
    const b = await folder('Counted B');
    const x = await folder('X', a);
    const y = await folder('Y', a);
    expect((await moveFolder(x, b)).status).toBe(200);
    expect((await api.request('DELETE', `/v3/folders/${y}`, { token: admin })).status).toBe(204);
    const emptied = await api.request('DELETE', `/v3/folders/${a}`, { token: admin });
    expect(emptied.status, emptied.text).toBe(204);
    const toRoot = await api.request('PATCH', `/v3/folders/${x}`, {
      token: admin,
      body: { data: { type: 'folders', id: x, relationships: { parent: { data: null } } } },
    });
    expect(toRoot.status, toRoot.text).toBe(200);
    expect((await api.request('DELETE', `/v3/folders/${b}`, { token: admin })).status).toBe(204);
    expect((await api.request('DELETE', `/v3/folders/${x}`, { token: admin })).status).toBe(204);
  });

  it('folders filed before subfolders were counted (unmarked, no count) are never refused for want of one: such a tree, with a subfolder made in it since, deletes', async () => {
    const top = await folder('Filed before the count');
    const old = await folder('Old', top);
    const older = await folder('Older', old);
    // As such folders are stored: no mark on the subfolders, no count on their parents.
    for (const id of [old, older])
      await tableClient.send(
        new UpdateCommand({
          TableName: tableName,
          Key: folders.keyOf(tenant.org.id, id),
          UpdateExpression: 'REMOVE parent_counted',
        }),
      );
    for (const id of [top, old])
      await tableClient.send(
        new DeleteCommand({ TableName: tableName, Key: subfolderCountKey(tenant.org.id, id) }),
      );
    const since = await folder('Since', old);
    const deleted = await api.request('DELETE', `/v3/folders/${top}?recursive=true`, { token: admin });
    expect(deleted.status, deleted.text).toBe(204);
    for (const id of [top, old, older, since])
      expect((await api.get(`/v3/folders/${id}`, admin)).status).toBe(404);
  });
});
