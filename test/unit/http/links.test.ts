import { describe, expect, it } from 'vitest';
import { iamPermissions } from '#functions/iam/definitions';
import type { StoredResource } from '#shared/data/stored-resource';
import { defineResource } from '#shared/engine/resource-definition';
import { routePath } from '#shared/http/links';
import { matchRoute, resourceTypes } from '#shared/routes';

const ORG = '0190a1b2-0000-7000-8000-00000000000a';
const ID = '0190a1b2-0000-7000-8000-00000000000b';

/** An organisation is stored in itself: its id is its organisation's. */
const STORED_IN_THEMSELVES = new Set(['organisations']);
/** One record per organisation, whose path names the organisation alone. */
const ONE_PER_ORGANISATION = new Set(['settings', 'notification-rules']);

const sample = (type: string): StoredResource => ({
  pk: '',
  sk: ID,
  type,
  id: ID,
  org_id: STORED_IN_THEMSELVES.has(type) ? ID : ORG,
  attributes: {},
  meta: {},
  rels: {},
  version: 1,
});

/** The route the local adapter (and each area's router) would send a GET of this link to. */
const servedBy = (path: string) => {
  const url = new URL(path, 'http://api.test');
  return { ...matchRoute('GET', url.pathname), query: url.searchParams };
};

describe('links are derived from the route table (issue 15: every link the API emits resolves)', () => {
  const declared = [...resourceTypes.values()].filter((d) => d.itemPath !== undefined);

  it('every type with links.self declares the item path they come from, but the permission catalogue', () => {
    const others = [...resourceTypes.values()].filter((d) => d.selfPath && d.itemPath === undefined);
    expect(others.map((d) => d.type)).toEqual(['iam-permissions']);
  });

  it.each(declared.map((d) => [d.type, d] as const))(
    'the links.self of a %s record is a path a GET route serves, naming the record and its organisation',
    (type, definition) => {
      const path = definition.selfPath?.(sample(type));
      expect(path, `${type} has no links.self`).toBeDefined();
      const { match, query } = servedBy(path ?? '');
      expect(match?.route.method, `${path} is served by no GET route`).toBe('GET');
      const params = match?.params ?? {};
      expect(Object.values(params).at(-1), 'the last path parameter is the record id').toBe(
        ONE_PER_ORGANISATION.has(type) ? ORG : ID,
      );
      if (!STORED_IN_THEMSELVES.has(type) && 'org_id' in params) expect(params.org_id).toBe(ORG);
      expect([...query.keys()]).toEqual([]);
    },
  );

  it('a permission (no page of its own) links to the catalogue filtered to exactly it', () => {
    const path = iamPermissions.selfPath?.({ ...sample('iam-permissions'), id: 'teams:view' }) ?? '';
    const { match, query } = servedBy(path);
    expect(match?.route.id).toBe('listPermissions');
    expect(Object.fromEntries(query)).toEqual({ 'filter[name]': 'teams:view' });
  });

  it('routePath fills a template and percent-encodes values; the matcher decodes them back', () => {
    const path = routePath('getServiceAccountKey', { org_id: ORG, service_account_id: ID, key_id: 'a/b c' });
    expect(path).toBe(`/v3/orgs/${ORG}/iam/service-accounts/${ID}/keys/a%2Fb%20c`);
    expect(servedBy(path).match?.params).toEqual({ org_id: ORG, service_account_id: ID, key_id: 'a/b c' });
    // @ts-expect-error: the type of routePath's parameters requires every parameter of the path.
    expect(() => routePath('getServiceAccountKey', { org_id: ORG })).toThrow(/service_account_id/);
  });

  it('an item path must take its ids from the record alone (its organisation and its id)', () => {
    const declare = (itemPath: string) => defineResource({ type: 'teams', relationships: {}, itemPath });
    expect(() =>
      declare('/v3/orgs/{org_id}/iam/service-accounts/{service_account_id}/keys/{key_id}'),
    ).toThrow(/cannot be a record's path/);
    expect(() => declare('/v3/orgs')).toThrow(/cannot be a record's path/);
    expect(declare('/v3/orgs/{org_id}/people/teams/{team_id}').selfPath?.(sample('teams'))).toBe(
      `/v3/orgs/${ORG}/people/teams/${ID}`,
    );
  });
});
