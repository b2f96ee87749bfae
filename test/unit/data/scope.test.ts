/**
 * The data layer's own organisation check (ARCHITECTURE "Data" rule 1), proven where no request can
 * reach it: every key a request builds names an organisation of its scope, so through the API the check
 * only shows on reads not keyed by organisation (test/security/tenant-isolation.test.ts). Nothing here
 * reaches DynamoDB: the records come read ahead, and an out-of-scope write is refused before it is sent.
 */
import { describe, expect, it } from 'vitest';
import { batchGetInScope } from '#shared/data/repository';
import { inScope, scopeOf } from '#shared/data/scope';
import { keyId, resourceKey, type StoredResource } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';

const A = '01900000-0000-7000-8000-00000000000a';
const B = '01900000-0000-7000-8000-00000000000b';
const recordOf = (org: string): StoredResource => ({
  ...resourceKey(org, 'teams', '01900000-0000-7000-8000-000000000001'),
  type: 'teams',
  id: '01900000-0000-7000-8000-000000000001',
  org_id: org,
  attributes: { name: 'Crew' },
  meta: {},
  rels: {},
  version: 1,
});
const readAhead = (record: StoredResource) => new Map<string, unknown>([[keyId(record), record]]);

describe('a scope holds the organisations a request may read, and nothing else', () => {
  it('inScope is true for the scope’s organisations only', () => {
    expect(inScope(scopeOf([B]), B)).toBe(true);
    expect(inScope(scopeOf([B]), A)).toBe(false);
    expect(inScope(scopeOf([]), A)).toBe(false);
  });

  it('a record of another organisation, read ahead with the credentials, is handed out as absent', async () => {
    const record = recordOf(A);
    expect(await batchGetInScope(scopeOf([B], readAhead(record)), [record])).toEqual([]);
    expect(await batchGetInScope(scopeOf([A], readAhead(record)), [record])).toEqual([record]);
  });

  it('a write of a record outside the scope is refused before anything is sent', async () => {
    // More ops than one transaction takes: were the scope not checked first, it would still never be sent.
    const ops = Array.from({ length: 101 }, () => ({ create: recordOf(A) }));
    await expect(commit(scopeOf([B]), ops)).rejects.toEqual(new WriteRefused('out-of-scope'));
  });
});
