/**
 * Indexed filters (issue 42, item 1) on folders: `parent` (a local index prefix), `scheme` (a sparse `gsi2`
 * prefix), `name` (its sort index) and `created_at.since/until` (the id range) are each answered from their
 * access patterns with the answers the partition's filter gave, reading what a page returns; none is
 * refused alone, and `meta.features` names them all. Comments: a record's comments (`subject_id`, required)
 * are its index partition, and a `created_at` window is a key range in it. Seeded with BatchWriteItem as
 * the bench is.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments } from '#functions/comments/definitions';
import { commentsIndexKey } from '#functions/comments/subject-index';
import { documents, folders } from '#functions/documents/definitions';
import { documentVersions } from '#functions/documents/versions/definition';
import { fileUnder } from '#shared/data/children';
import type { StoredResource } from '#shared/data/stored-resource';
import { fileChild } from '#shared/engine/children';
import { newRecord } from '#shared/engine/record-writes';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { idsByCursor } from '../support/cursor-walk';
import { expectCursorPagesRead, measuredGet } from '../support/indexed-reads';
import { newTenant, type Tenant } from '../support/tenants';

const COUNT = 240;
const MINUTE = 60_000;
const START = Date.UTC(2026, 2, 1);
const PARENTS = Array.from({ length: 6 }, () => randomUUID());
const SCHEMES = [randomUUID(), randomUUID()];

let api: TestApi;
let tenant: Tenant;
let token: string;
let records: StoredResource[];
const base = () => `/v3/orgs/${tenant.org.id}/folders`;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Indexed folder filters', 0);
  token = await api.token(tenant.admin);
  // One in 8 a root; names repeat out of creation order; one in 12 filed under a scheme.
  records = Array.from({ length: COUNT }, (_, i) =>
    newRecord(
      folders,
      tenant.org.id,
      {
        attributes: { name: `Folder ${String((i * 7) % 30).padStart(2, '0')}` },
        rels: {
          ...(i % 8 !== 0 && { parent: PARENTS[i % 6] }),
          ...(i % 12 === 5 && { scheme: SCHEMES[Math.floor(i / 12) % 2] }),
        },
      },
      new Date(START + i * MINUTE),
    ),
  );
  await bulkPutCounted(records);
}, 60_000);
afterAll(() => api.close());

const at = (i: number) => new Date(START + i * MINUTE).toISOString();
const idsOf = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);
const byCreation = (keep: (folder: StoredResource) => boolean) => records.filter(keep).map((f) => f.id);
const under = (parent: string | undefined) => (f: StoredResource) => f.rels.parent === parent;
const ofScheme = (scheme: string | undefined) => (f: StoredResource) => f.rels.scheme === scheme;
const named = (name: string) => (f: StoredResource) => f.attributes.name === name;
const since = (i: number) => (f: StoredResource) => String(f.meta.created_at) >= at(i);

/** A list's reads besides authentication, measured on its second sending (see children-paging.test.ts). */
const measured = (path: string) => measuredGet(api, token, path);

describe('folders: every filter is indexed (parent, scheme, name, created_at)', () => {
  const cases = (): [string, string[]][] => [
    [`filter[parent]=${PARENTS[1]}`, byCreation(under(PARENTS[1]))],
    [`filter[scheme]=${SCHEMES[0]}`, byCreation(ofScheme(SCHEMES[0]))],
    ['filter[name]=Folder 14', byCreation(named('Folder 14'))],
    [`filter[created_at.since]=${at(200)}`, byCreation(since(200))],
    [
      `filter[parent]=${PARENTS[5]}&filter[created_at.since]=${at(100)}`,
      byCreation((f) => under(PARENTS[5])(f) && since(100)(f)),
    ],
    [
      `filter[scheme]=${SCHEMES[1]}&filter[parent]=${PARENTS[5]}`,
      byCreation((f) => ofScheme(SCHEMES[1])(f) && under(PARENTS[5])(f)),
    ],
  ];

  it('answers each as the partition filter did: every page and the total by offset, every match by cursor', async () => {
    for (const [query, expected] of cases()) {
      expect(expected.length, query).toBeGreaterThan(0);
      const res = await api.get(`${base()}?${query}&sort=created_at&page[limit]=100`, token);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(idsOf(res.body), query).toEqual(expected.slice(0, 100));
      expect(res.body.meta.pagination.counts.resources, query).toBe(expected.length);
      const walked = await idsByCursor(
        api,
        `${base()}?${query}&sort=created_at&page[limit]=7&page[cursor]=`,
        token,
      );
      expect(walked, query).toEqual(expected);
      // By name (the default order), the same folders.
      const byName = await idsByCursor(api, `${base()}?${query}&page[limit]=7&page[cursor]=`, token);
      expect(new Set(byName), query).toEqual(new Set(expected));
      expect(byName, query).toHaveLength(expected.length);
    }
  });

  it('a cursor page reads at most 1.1× the folders it returns, in the same calls at page sizes 3 and 8', async () => {
    const paths = [
      `filter[parent]=${PARENTS[2]}&sort=created_at`,
      `filter[scheme]=${SCHEMES[0]}&sort=created_at`,
      'filter[name]=Folder 14',
      `filter[created_at.since]=${at(150)}&sort=created_at`,
    ].map((query) => `${base()}?${query}`);
    await expectCursorPagesRead(measured, paths, { limits: [3, 8] });
  });

  it("a folder's subfolders by name read its subfolders alone, never the organisation's folders", async () => {
    const page = await measured(`${base()}?filter[parent]=${PARENTS[3]}&page[limit]=5`);
    const matches = byCreation(under(PARENTS[3])).length;
    expect(page.body.meta.pagination.counts.resources).toBe(matches);
    expect(page.items).toBeLessThanOrEqual(matches + 1);
  });

  it('meta.features names every filter indexed (created_at windows too), so none is refused alone', async () => {
    const res = await api.get(`${base()}?page[limit]=1`, token);
    expect(res.body.meta.features.params.filter.indexed).toEqual(
      res.body.meta.features.params.filter.options,
    );
  });
});

describe('comments: a record’s comments and a time window in them are read from its index', () => {
  const SUBJECT = randomUUID();
  const OTHER = randomUUID();
  const AUTHORS = [randomUUID(), randomUUID(), randomUUID()];
  let said: StoredResource[];
  const commentsBase = () => `/v3/orgs/${tenant.org.id}/comments?filter[subject_id]=${SUBJECT}`;
  const on = (keep: (c: StoredResource) => boolean) =>
    said.filter((c) => (c.attributes.subject as { id: string }).id === SUBJECT && keep(c)).map((c) => c.id);

  beforeAll(async () => {
    // 120 comments on one record, 120 on another, interleaved in time.
    said = Array.from({ length: 240 }, (_, i) => {
      const subject = i % 2 === 0 ? SUBJECT : OTHER;
      const record = newRecord(
        comments,
        tenant.org.id,
        {
          attributes: { body: `Comment ${i}`, subject: { type: 'schemes', id: subject } },
          rels: { author: AUTHORS[i % 3] ?? null },
        },
        new Date(START + i * MINUTE),
      );
      return fileUnder(record, commentsIndexKey(subject));
    });
    await bulkPutCounted(said);
  }, 60_000);

  it('answers each filter as the partition filter did: every page and the total by offset, every match by cursor', async () => {
    const cases: [string, string[]][] = [
      ['', on(() => true)],
      [`&filter[created_at.since]=${at(100)}`, on(since(100))],
      [
        `&filter[created_at.since]=${at(40)}&filter[created_at.until]=${at(90)}&sort=-created_at`,
        on((c) => since(40)(c) && String(c.meta.created_at) <= at(90)).reverse(),
      ],
      [`&filter[author]=${AUTHORS[1]}`, on((c) => c.rels.author === AUTHORS[1])],
      [
        `&filter[author]=${AUTHORS[2]}&filter[created_at.until]=${at(60)}`,
        on((c) => c.rels.author === AUTHORS[2] && String(c.meta.created_at) <= at(60)),
      ],
    ];
    for (const [query, expected] of cases) {
      expect(expected.length, query).toBeGreaterThan(0);
      const res = await api.get(`${commentsBase()}${query}&page[limit]=100`, token);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(idsOf(res.body), query).toEqual(expected.slice(0, 100));
      expect(res.body.meta.pagination.counts.resources, query).toBe(expected.length);
      const walked = await idsByCursor(api, `${commentsBase()}${query}&page[limit]=9&page[cursor]=`, token);
      expect(walked, query).toEqual(expected);
    }
  });

  it("a window's cursor page reads at most 1.1× what it returns, in the same calls at page sizes 3 and 8", async () => {
    const paths = [`&filter[created_at.since]=${at(150)}`, `&filter[created_at.until]=${at(80)}`].map(
      (query) => `${commentsBase()}${query}`,
    );
    await expectCursorPagesRead(measured, paths, { limits: [3, 8], full: true });
  });

  it("an offset page of a window reads its page, and counts the window in the record's comments alone", async () => {
    const page = await measured(`${commentsBase()}&filter[created_at.since]=${at(200)}&page[limit]=5`);
    expect(page.body.meta.pagination.counts.resources).toBe(on(since(200)).length);
    // The page's 5, and the window's 20 looked at by a count-only read: never the other record's.
    expect(page.items).toBe(5 + on(since(200)).length);
  });

  it('meta.features names subject_id and created_at indexed: author narrows the required subject', async () => {
    const res = await api.get(`${commentsBase()}&page[limit]=1`, token);
    expect(res.body.meta.features.params.filter).toMatchObject({
      options: ['subject_id', 'author', 'created_at.since', 'created_at.until'],
      indexed: ['subject_id', 'created_at.since', 'created_at.until'],
    });
  });
});

describe("documents and versions: a parent's children by an indexed filter read that filter's matches in the parent", () => {
  let shelf: StoredResource;
  let other: StoredResource;
  let filed: StoredResource[];
  let manual: StoredResource;
  let versions: StoredResource[];
  const TYPES = ['application/pdf', 'image/png', 'text/plain'];
  const docsOf = (folder: StoredResource) => `/v3/folders/${folder.id}/documents`;
  const inShelf = (keep: (d: StoredResource) => boolean) =>
    filed.filter((d) => d.rels.folder === shelf.id && keep(d)).map((d) => d.id);

  beforeAll(async () => {
    [shelf, other] = ['Shelf', 'Other'].map((name, i) =>
      newRecord(folders, tenant.org.id, { attributes: { name } }, new Date(START - (2 - i) * MINUTE)),
    ) as [StoredResource, StoredResource];
    // 150 documents in each of two folders, interleaved; 1 in 6 pending (no file yet).
    filed = Array.from({ length: 300 }, (_, i) => {
      const folder = i % 2 === 0 ? shelf : other;
      const pending = i % 12 < 2;
      const record = newRecord(
        documents,
        tenant.org.id,
        {
          attributes: {
            name: `Doc ${String((i * 7) % 300).padStart(3, '0')}`,
            status: pending ? 'pending' : 'available',
            content_type: pending ? null : TYPES[i % 3],
            size: pending ? null : 100,
            checksum: null,
            version_count: pending ? 0 : 1,
          },
          rels: { folder: folder.id, current_version: null },
        },
        new Date(START + i * MINUTE),
      );
      return fileChild(folder, record);
    });
    manual = filed[1] as StoredResource;
    versions = Array.from({ length: 40 }, (_, i) =>
      fileChild(
        manual,
        newRecord(
          documentVersions,
          tenant.org.id,
          {
            attributes: {
              number: i + 1,
              status: i % 5 === 4 ? 'pending' : 'available',
              content_type: 'application/pdf',
              size: 100,
              checksum: 'x',
              uploaded_at: null,
            },
            rels: { document: manual.id },
          },
          new Date(START + (400 + i) * MINUTE),
        ),
      ),
    );
    await bulkPutCounted([shelf, other, ...filed, ...versions]);
  }, 60_000);

  it('answers each filter as the partition filter did: every page and the total by offset, every match by cursor', async () => {
    const cases: [string, string[]][] = [
      ['filter[status]=pending', inShelf((d) => d.attributes.status === 'pending')],
      ['filter[content_type]=image/png', inShelf((d) => d.attributes.content_type === 'image/png')],
      [`filter[created_at.since]=${at(200)}`, inShelf(since(200))],
      [
        `filter[status]=available&filter[created_at.until]=${at(100)}`,
        inShelf((d) => d.attributes.status === 'available' && String(d.meta.created_at) <= at(100)),
      ],
    ];
    for (const [query, expected] of cases) {
      expect(expected.length, query).toBeGreaterThan(0);
      const res = await api.get(`${docsOf(shelf)}?${query}&sort=created_at&page[limit]=100`, token);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(idsOf(res.body), query).toEqual(expected.slice(0, 100));
      expect(res.body.meta.pagination.counts.resources, query).toBe(expected.length);
      const walked = await idsByCursor(
        api,
        `${docsOf(shelf)}?${query}&sort=created_at&page[limit]=7&page[cursor]=`,
        token,
      );
      expect(walked, query).toEqual(expected);
      const byName = await idsByCursor(api, `${docsOf(shelf)}?${query}&page[limit]=7&page[cursor]=`, token);
      expect(new Set(byName), query).toEqual(new Set(expected));
      expect(byName, query).toHaveLength(expected.length);
    }
  });

  it('a cursor page reads at most 1.1× the documents it returns and the folder, in the same calls at page sizes 3 and 8', async () => {
    const paths = [
      'filter[status]=pending',
      'filter[content_type]=text/plain',
      `filter[created_at.since]=${at(100)}`,
    ].map((query) => `${docsOf(shelf)}?${query}&sort=created_at`);
    await expectCursorPagesRead(measured, paths, { limits: [3, 8], full: true, besides: 1 });
  });

  it("a document's versions by status read its matches and the document, not every version", async () => {
    const pending = versions
      .filter((v) => v.attributes.status === 'pending')
      .map((v) => v.id)
      .reverse();
    const page = await measured(`/v3/documents/${manual.id}/versions?filter[status]=pending&page[limit]=100`);
    expect(idsOf(page.body)).toEqual(pending);
    expect(page.body.meta.pagination.counts.resources).toBe(pending.length);
    expect(page.items).toBeLessThanOrEqual(pending.length + 1);
  });

  it('meta.features names every filter indexed, so none is refused alone', async () => {
    for (const path of [docsOf(shelf), `/v3/documents/${manual.id}/versions`]) {
      const res = await api.get(`${path}?page[limit]=1`, token);
      expect(res.status, res.text).toBe(200);
      expect(res.body.meta.features.params.filter.indexed, path).toEqual(
        res.body.meta.features.params.filter.options,
      );
    }
  });
});
