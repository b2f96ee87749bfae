/**
 * Issue 19: a parent's children are read a page at a time, not whole. Unfiltered and in their partition's
 * key order, a page of an agent's briefings (and every collection filed on `gsi1` under its parent) reads
 * the page, the parent and the partition's counter, in two calls whatever the page size, made together
 * when the parent's organisation is known (issue 42: one round trip); a cursor walk
 * reads a page per page; a pack's site hazards (listed by the pack) read only the page's ids. The counter
 * the total comes from is kept by the writes themselves: it equals the real number of children after every
 * create, move and delete. A folder's documents are keyed by name, their default order. Filtered, the
 * matches are read in full (to count them); sorted otherwise, the whole partition is read and sorted in
 * memory. A caller outside the parent's organisation gets 404 and nothing of the children.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preConstructionInformation, siteHazards } from '#functions/cdm/definitions';
import { getItem } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import { counterKey } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { type ApiResponse, startTestApi, type TestApi } from '../support/api';
import { createFolder } from '../support/folders';
import { itemsRead, type Read } from '../support/query-scans';
import { sequentialTrips } from '../support/round-trips';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let a: Tenant;
let b: Tenant;
let admin: string;
let outsider: string;
let agentId: string;
/** The agent's 40 briefings, oldest first; every third has its result (ready), the rest are generating. */
const briefings: { id: string; status: string }[] = [];

const result = {
  summary: 'One risk.',
  sections: [{ title: 'Key risks', items: [{ text: 'Silt', severity: 'amber' }], reasoning: 'PCI.' }],
  reasoning: {},
  model_used: 'example-model',
  token_usage: { prompt_tokens: 1, completion_tokens: 1 },
};

beforeAll(async () => {
  api = await startTestApi();
  [a, b] = await Promise.all([newTenant('Children A', 0), newTenant('Children B', 0)]);
  [admin, outsider] = await Promise.all([api.token(a.admin), api.token(b.admin)]);
  const agent = await api.request('POST', `/v3/orgs/${a.org.id}/agents`, {
    token: admin,
    body: { data: { type: 'agents', attributes: { name: 'Paging', persona: 'Pages.', enabled: true } } },
  });
  expect(agent.status, agent.text).toBe(201);
  agentId = agent.body.data.id;
  for (let i = 0; i < 40; i++) {
    const res = await api.request('POST', `/v3/agents/${agentId}/briefings`, {
      token: admin,
      body: { data: { type: 'briefings', attributes: i % 3 === 0 ? result : {} } },
    });
    expect(res.status, res.text).toBe(201);
    briefings.push({ id: res.body.data.id, status: res.body.data.attributes.status });
  }
}, 60_000);
afterAll(() => api.close());

const ids = (res: ApiResponse) => (res.body.data as { id: string }[]).map((r) => r.id);
const total = (res: ApiResponse) => res.body.meta.pagination.counts.resources as number;
const itemsOf = (reads: Read[]) => reads.reduce((sum, r) => sum + r.items, 0);
const newestFirst = () => briefings.map((x) => x.id).reverse();

/**
 * The request's reads, measured on its second sending: the first has followed the links of its answer's
 * shape once (test/support/api.ts), which the second then does not.
 */
const measured = async (path: string, token = admin) => {
  await api.get(path, token);
  const { result: res, reads } = await itemsRead(() => api.get(path, token));
  return { res, reads, items: itemsOf(reads) };
};

/** Walks a collection by cursor: every page's ids, and the items each page read. */
const walk = async (path: string, limit: number) => {
  const seen: string[] = [];
  const read: number[] = [];
  let next: string | undefined = `${path}${path.includes('?') ? '&' : '?'}page[limit]=${limit}&page[cursor]=`;
  while (next) {
    const { result: res, reads } = await itemsRead(() => api.get(next as string, admin));
    expect(res.status, res.text).toBe(200);
    seen.push(...ids(res));
    read.push(itemsOf(reads));
    const link = res.body.links?.next as string | undefined;
    next = link ? link.slice(link.indexOf('/v3/')) : undefined;
  }
  return { seen, read };
};

describe('an agent’s briefings (a gsi1 partition), unfiltered, newest first (the key order)', () => {
  it('page 1 of 40 reads the page beside the parent and the counter in its organisation (the caller’s only one): two calls in one round trip, whatever the page size', async () => {
    for (const limit of [1, 25, 100]) {
      const { res, reads, items } = await measured(`/v3/agents/${agentId}/briefings?page[limit]=${limit}`);
      expect(res.status, res.text).toBe(200);
      const page = Math.min(limit, 40);
      expect(ids(res)).toEqual(newestFirst().slice(0, page));
      expect(total(res)).toBe(40);
      expect(items, JSON.stringify(reads)).toBe(page + 2);
      // The parent's organisation is the caller's only one: its key and the counter's, and no other, are
      // asked, beside the Query. No feature switch: an administrator reads past it (issue 42), so none is
      // read ahead.
      expect(reads.map((r) => [r.command, r.asked])).toEqual([
        ['QueryCommand', undefined],
        ['BatchGetItemCommand', 2],
      ]);
      expect(sequentialTrips(reads), JSON.stringify(reads)).toBe(1);
    }
  });

  it('an include of the parent serves the parent read with the page: nothing more is read', async () => {
    const { res, reads, items } = await measured(
      `/v3/agents/${agentId}/briefings?page[limit]=5&include=agent`,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.included.map((r: { type: string; id: string }) => [r.type, r.id])).toEqual([
      ['agents', agentId],
    ]);
    expect(items, JSON.stringify(reads)).toBe(5 + 2);
    // The page beside the parent and its counter (an administrator reads no feature switch, issue 42).
    expect(reads.map((r) => r.command)).toEqual(['QueryCommand', 'BatchGetItemCommand']);
    expect(sequentialTrips(reads), JSON.stringify(reads)).toBe(1);
  });

  it('an offset page reads up to its end (offset paging costs the offset), a cursor page reads a page', async () => {
    const { res, items } = await measured(`/v3/agents/${agentId}/briefings?page[offset]=10&page[limit]=5`);
    expect(ids(res)).toEqual(newestFirst().slice(10, 15));
    expect(items).toBe(15 + 2);
  });

  it('a cursor walk visits every briefing once, in either order, reading at most a page and the parent and counter each time', async () => {
    const down = await walk(`/v3/agents/${agentId}/briefings`, 7);
    expect(down.seen).toEqual(newestFirst());
    for (const items of down.read) expect(items).toBeLessThanOrEqual(7 + 2);
    const up = await walk(`/v3/agents/${agentId}/briefings?sort=created_at`, 9);
    expect(up.seen).toEqual(briefings.map((x) => x.id));
    for (const items of up.read) expect(items).toBeLessThanOrEqual(9 + 2);
  });

  it('filtered, the answer is still exactly the matches (read from the whole partition), by offset and by cursor', async () => {
    const ready = briefings.filter((x) => x.status === 'ready').map((x) => x.id);
    expect(ready.length).toBe(14);
    const res = await api.get(`/v3/agents/${agentId}/briefings?filter[status]=ready&page[limit]=100`, admin);
    expect(ids(res)).toEqual([...ready].reverse());
    expect(total(res)).toBe(ready.length);
    const byCursor = await walk(`/v3/agents/${agentId}/briefings?filter[status]=generating`, 10);
    expect(byCursor.seen).toEqual(
      briefings
        .filter((x) => x.status === 'generating')
        .map((x) => x.id)
        .reverse(),
    );
  });

  it('a caller outside the agent’s organisation gets 404 and none of its briefings, on every path', async () => {
    for (const query of [
      '',
      '?page[limit]=100',
      '?page[cursor]=',
      '?filter[status]=ready',
      '?sort=created_at',
    ]) {
      const res = await api.get(`/v3/agents/${agentId}/briefings${query}`, outsider);
      expect(res.status, res.text).toBe(404);
      expect(res.body.data).toBeUndefined();
      expect(res.text).not.toContain(briefings[0]?.id);
    }
  });
});

describe('the count a total comes from is the real number of children after every create, move and delete', () => {
  const folder = (name: string, parent?: string) =>
    createFolder(api, a.org.id, { token: admin }, name, parent);
  const file = {
    content_type: 'text/plain',
    size: 5,
    checksum: 'LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=',
  };
  const document = async (folderId: string, name: string) => {
    const res = await api.request('POST', `/v3/folders/${folderId}/documents`, {
      token: admin,
      body: { data: { type: 'documents', attributes: { name, ...file } } },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const counted = async (partition: string) =>
    (await getItem<{ count?: number }>(counterKey(a.org.id, partition)))?.count ?? 0;
  /**
   * The folder's documents: the counter's total (key order: by name) must equal the whole partition's
   * (by creation, read whole and sorted in memory).
   */
  const expectDocuments = async (folderId: string, expected: string[]) => {
    const [whole, byKey] = await Promise.all([
      api.get(`/v3/folders/${folderId}/documents?sort=created_at&page[limit]=100`, admin),
      api.get(`/v3/folders/${folderId}/documents?sort=name&page[limit]=100`, admin),
    ]);
    expect(ids(whole)).toEqual(expected);
    expect(total(whole)).toBe(expected.length);
    expect(total(byKey)).toBe(expected.length);
  };

  it('documents: created, moved between folders, deleted singly and by a recursive delete of their folder', async () => {
    const [one, two] = [await folder('One'), await folder('Two')];
    const inner = await folder('Inner', one);
    const docs = [await document(one, 'a.txt'), await document(one, 'b.txt'), await document(one, 'c.txt')];
    const deep = await document(inner, 'd.txt');
    await expectDocuments(one, docs);
    await expectDocuments(two, []);

    const moved = await api.request('PATCH', `/v3/documents/${docs[1]}`, {
      token: admin,
      body: {
        data: {
          type: 'documents',
          id: docs[1],
          relationships: { folder: { data: { type: 'folders', id: two } } },
        },
      },
    });
    expect(moved.status, moved.text).toBe(200);
    await expectDocuments(one, [docs[0], docs[2]] as string[]);
    await expectDocuments(two, [docs[1]] as string[]);

    const renamed = await api.request('PATCH', `/v3/documents/${docs[1]}`, {
      token: admin,
      body: { data: { type: 'documents', id: docs[1], attributes: { name: 'b2.txt' } } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    await expectDocuments(two, [docs[1]] as string[]);

    expect((await api.request('DELETE', `/v3/documents/${docs[0]}`, { token: admin })).status).toBe(204);
    await expectDocuments(one, [docs[2]] as string[]);
    expect(await counted(`documents#${docs[0]}#document-versions`)).toBe(0);

    await expectDocuments(inner, [deep]);
    expect((await api.request('DELETE', `/v3/folders/${one}?recursive=true`, { token: admin })).status).toBe(
      204,
    );
    expect(await counted(`folders#${one}#documents`)).toBe(0);
    expect(await counted(`folders#${inner}#documents`)).toBe(0);
    expect(await counted(`documents#${deep}#document-versions`)).toBe(0);
    expect(await counted(`folders#${two}#documents`)).toBe(1);
  });

  it('documents are keyed by name, their default order: a page reads only the page, in the order of the names case-folded, renames included, filtered too', async () => {
    const shelf = await folder('Shelf');
    const names = ['delta.pdf', 'Alpha.pdf', 'charlie.pdf', 'Bravo 2.pdf', 'bravo.pdf', 'echo.pdf', 'a.pdf'];
    const made = new Map<string, string>();
    for (const name of names) made.set(await document(shelf, name), name);
    const byName = (list: Map<string, string>) =>
      [...list].sort(([, x], [, y]) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1)).map(([id]) => id);
    const first = await measured(`/v3/folders/${shelf}/documents?page[limit]=3`);
    expect(ids(first.res)).toEqual(byName(made).slice(0, 3));
    expect(total(first.res)).toBe(names.length);
    expect(first.items, JSON.stringify(first.reads)).toBe(3 + 2);
    // Included, the folder is the one read with the page, its counts (a tally item) read in the same call.
    const withFolder = await measured(`/v3/folders/${shelf}/documents?page[limit]=3&include=folder`);
    expect(withFolder.res.body.included.map((r: { id: string }) => r.id)).toEqual([shelf]);
    const alone = await api.get(`/v3/folders/${shelf}`, admin);
    expect(withFolder.res.body.included[0].meta).toEqual(alone.body.data.meta);
    expect(alone.body.data.meta).toHaveProperty('document_count');
    expect(withFolder.items, JSON.stringify(withFolder.reads)).toBe(3 + 3);
    // No feature switch is read: an administrator reads past it (issue 42).
    expect(withFolder.reads.map((r) => [r.command, r.asked])).toEqual([
      ['QueryCommand', undefined],
      ['BatchGetItemCommand', 3],
    ]);
    expect(sequentialTrips(withFolder.reads), JSON.stringify(withFolder.reads)).toBe(1);
    const last = await measured(`/v3/folders/${shelf}/documents?sort=-name&page[limit]=2`);
    expect(ids(last.res)).toEqual(byName(made).reverse().slice(0, 2));

    const [renamed] = byName(made);
    const res = await api.request('PATCH', `/v3/documents/${renamed}`, {
      token: admin,
      body: { data: { type: 'documents', id: renamed, attributes: { name: 'zulu.pdf' } } },
    });
    expect(res.status, res.text).toBe(200);
    made.set(String(renamed), 'zulu.pdf');
    const walked = await walk(`/v3/folders/${shelf}/documents`, 2);
    expect(walked.seen).toEqual(byName(made));
    // Filtered by a value every one of them has: the same order, the matches counted.
    const { status } = (await api.get(`/v3/documents/${renamed}`, admin)).body.data.attributes;
    const filtered = await api.get(`/v3/folders/${shelf}/documents?filter[status]=${status}`, admin);
    expect(ids(filtered)).toEqual(byName(made));
    expect(total(filtered)).toBe(names.length);
  });

  it('document versions: numbered in key order, so the newest first page reads only the page', async () => {
    const doc = await document(await folder('Versions'), 'v.txt');
    for (let i = 0; i < 3; i++) {
      const res = await api.request('POST', `/v3/documents/${doc}/versions`, {
        token: admin,
        body: { data: { type: 'document-versions', attributes: file } },
      });
      expect(res.status, res.text).toBe(201);
    }
    const { res, items } = await measured(`/v3/documents/${doc}/versions?page[limit]=2`);
    expect(res.body.data.map((v: { attributes: { number: number } }) => v.attributes.number)).toEqual([4, 3]);
    expect(total(res)).toBe(4);
    expect(items).toBe(2 + 2);
    const all = await walk(`/v3/documents/${doc}/versions?sort=number`, 3);
    expect(all.seen.length).toBe(4);
    const created = await api.get(`/v3/documents/${doc}/versions?sort=created_at&page[limit]=100`, admin);
    expect(ids(created)).toEqual([...all.seen]);
    expect(await counted(`documents#${doc}#document-versions`)).toBe(4);
  });

  it('comments: created and deleted, counted under their subject; the unfiltered page reads only the page', async () => {
    const subject = await document(await folder('Commented'), 'c.txt');
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await api.request('POST', `/v3/orgs/${a.org.id}/comments`, {
        token: admin,
        body: {
          data: {
            type: 'comments',
            attributes: { body: `Note ${i}`, subject: { type: 'documents', id: subject } },
          },
        },
      });
      expect(res.status, res.text).toBe(201);
      made.push(res.body.data.id);
    }
    expect((await api.request('DELETE', `/v3/comments/${made[1]}`, { token: admin })).status).toBe(204);
    const left = made.filter((_, i) => i !== 1);
    const path = `/v3/orgs/${a.org.id}/comments?filter[subject_id]=${subject}`;
    const { res, items } = await measured(`${path}&page[limit]=2`);
    expect(ids(res)).toEqual(left.slice(0, 2));
    expect(total(res)).toBe(3);
    expect(items).toBe(2 + 1);
    const filtered = await api.get(`${path}&filter[author]=${a.admin.principalId}&page[limit]=100`, admin);
    expect(filtered.status, filtered.text).toBe(200);
    expect((await walk(path, 2)).seen).toEqual(left);
    expect(await counted(`COMMENTS#${subject}`)).toBe(3);
  });
});

describe('a pack’s site hazards (ids the pack lists), unfiltered in creation order', () => {
  let packId: string;
  const hazards: string[] = [];

  beforeAll(async () => {
    const scope = scopeOf([a.org.id]);
    const pack = newRecord(preConstructionInformation, a.org.id, { attributes: {}, rels: { scheme: null } });
    const made = Array.from({ length: 40 }, (_, i) =>
      newRecord(siteHazards, a.org.id, {
        // As the API writes them (pre-construction.ts): a retired hazard says when; each names its pack.
        attributes: {
          title: `Hazard ${i}`,
          severity: 'low',
          status: i % 4 === 0 ? 'retired' : 'active',
          retired_at: i % 4 === 0 ? '2026-01-31T09:00:00.000Z' : null,
        },
        rels: { pre_construction_information: pack.id },
      }),
    );
    hazards.push(...made.map((h) => h.id));
    pack.rels.site_hazards = [...hazards].reverse();
    packId = pack.id;
    for (let i = 0; i < made.length; i += 20)
      await commit(
        scope,
        made.slice(i, i + 20).map((create) => ({ create })),
      );
    await commit(scope, [{ create: pack }]);
  });

  it('reads the pack and the page’s hazards only; the total is the list’s length', async () => {
    for (const limit of [1, 25]) {
      const { res, items } = await measured(
        `/v3/pre-construction-information/${packId}/site-hazards?page[limit]=${limit}`,
      );
      expect(res.status, res.text).toBe(200);
      expect(ids(res)).toEqual(hazards.slice(0, limit));
      expect(total(res)).toBe(40);
      expect(items).toBe(limit + 1);
    }
  });

  it('a cursor walk visits every hazard once, newest first too; a filter answers the matches', async () => {
    const path = `/v3/pre-construction-information/${packId}/site-hazards`;
    const down = await walk(`${path}?sort=-created_at`, 6);
    expect(down.seen).toEqual([...hazards].reverse());
    for (const items of down.read) expect(items).toBeLessThanOrEqual(6 + 1);
    const active = await api.get(`${path}?filter[status]=active&page[limit]=100`, admin);
    expect(ids(active)).toEqual(hazards.filter((_, i) => i % 4 !== 0));
    const outside = await api.get(`${path}?page[limit]=5`, outsider);
    expect(outside.status).toBe(404);
    expect(outside.body.data).toBeUndefined();
  });
});
