/**
 * The id directory (issue 42, item 2): a path with a bare id costs the same keys for a caller in one
 * organisation or in ten, because the record's directory entry is read with the credentials and the
 * record then in its one organisation; and the directory only says where to look, so another tenant's
 * id answers, and costs, exactly as an id that does not exist. Reads are counted on the service's own
 * client, grant evaluation and budget leases left out (the tests evaluate grants on every request).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streets } from '#functions/places/definitions';
import { documents, dynamodb, tableName } from '#shared/data/clients';
import { directoryEntry, directoryKey } from '#shared/data/id-directory';
import { uuidv7 } from '#shared/data/ids';
import { getItem } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { createOrganisation, createServiceAccountClient } from '../../infra/local/records';
import { type ApiResponse, startTestApi, type TestApi } from '../support/api';
import { createFolder } from '../support/folders';
import { isBudgetLease } from '../support/request-overhead';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let home: Tenant;
let other: Tenant;
/** Admin in `home` alone, and admin in `home` and nine more organisations. */
let inOne: string;
let inTen: string;

type Key = { pk: string; sk: string };
type Input = {
  RequestItems?: Record<string, { Keys?: Key[] }>;
  Key?: Key;
  IndexName?: string;
  ExpressionAttributeValues?: Record<string, unknown>;
};

/** Reads that evaluate the caller's grants, and the credentials' own items: the same for any path. */
const evaluatesGrants = (command: string, input: Input) => {
  if (command === 'QueryCommand') return input.ExpressionAttributeValues?.[':g'] === 'GRANT#';
  const keys = Object.values(input.RequestItems ?? {}).flatMap((r) => r.Keys ?? []);
  return keys.length > 0 && keys.every((k) => /#(roles|role-groups)$/.test(k.pk));
};
/**
 * The credentials' own items, and a switchable area's switches (per organisation, remembered by a warm
 * container for FEATURE_SWITCH_SECONDS, read afresh in tests): the same for any path of the route.
 */
const credential = (key: Key) =>
  /^(PRINCIPAL|SESSION)#/.test(key.pk) || key.pk.endsWith('#feature-configurations');

/** Each DynamoDB call a request makes besides grant evaluation: its command and the keys it asks for. */
const readsOf = async (send: () => Promise<ApiResponse>) => {
  const calls: { command: string; keys: string[] }[] = [];
  const count =
    (next: (args: { input: Input }) => Promise<unknown>, context: { commandName?: string }) =>
    async (args: { input: Input }) => {
      const command = context.commandName ?? '';
      if (!evaluatesGrants(command, args.input) && !isBudgetLease(args.input)) {
        const keys = [
          ...Object.values(args.input.RequestItems ?? {}).flatMap((r) => r.Keys ?? []),
          ...(args.input.Key ? [args.input.Key] : []),
        ].filter((key) => !credential(key));
        calls.push({ command, keys: keys.map((k) => `${k.pk} ${k.sk}`) });
      }
      return next(args);
    };
  dynamodb.middlewareStack.add(count as never, { step: 'initialize', name: 'directoryReads' });
  try {
    return { response: await send(), calls };
  } finally {
    dynamodb.middlewareStack.remove('directoryReads');
  }
};

const keysAsked = (calls: { keys: string[] }[]) => calls.reduce((sum, call) => sum + call.keys.length, 0);

const street = async (orgId: string, name: string) => {
  const record = newRecord(streets, orgId, { attributes: { name, usrn: '30100003', town: 'Hawes' } });
  await commit(scopeOf([orgId]), [{ create: record }]);
  return record;
};

beforeAll(async () => {
  api = await startTestApi();
  [home, other] = [await newTenant('Directory Home', 0), await newTenant('Directory Other', 0)];
  const more: StoredResource[] = [];
  for (let i = 0; i < 9; i++)
    more.push(
      await createOrganisation({
        name: `Directory ${i}`,
        slug: `directory-${i}-${uuidv7()}`,
        description: '',
      }),
    );
  const admin = (orgIds: string[]) =>
    createServiceAccountClient(
      `Directory caller in ${orgIds.length}`,
      orgIds.map((org_id) => ({ org_id, role: 'admin' })),
    );
  inOne = await api.token(await admin([home.org.id]));
  inTen = await api.token(await admin([home.org.id, ...more.map((o) => o.id)]));
}, 120_000);
afterAll(() => api.close());

describe('the id directory is written with the record', () => {
  it('a create through the API puts the entry (organisation and type); a delete removes it', async () => {
    // A vehicle: its path is its id alone (`/v3/vehicles/{vehicle_id}`), so its entry is read.
    const path = `/v3/orgs/${home.org.id}/assets/vehicles`;
    const body = { data: { type: 'vehicles', attributes: { registration: 'DIR 1' } } };
    const made = await api.request('POST', path, { token: inOne, body });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id as string;
    expect(await getItem(directoryKey(id))).toEqual({
      ...directoryKey(id),
      org_id: home.org.id,
      type: 'vehicles',
    });
    expect((await api.request('DELETE', `/v3/vehicles/${id}`, { token: inOne })).status).toBe(204);
    expect(await getItem(directoryKey(id))).toBeNull();
  });

  it('issue 42, item 7: a type every route reaches through its organisation (a manufacturer) gets no entry, and reads as before', async () => {
    const path = `/v3/orgs/${home.org.id}/assets/equipment-manufacturers`;
    const body = { data: { type: 'equipment-manufacturers', attributes: { name: 'Directory Tools' } } };
    const made = await api.request('POST', path, { token: inOne, body });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id as string;
    expect(await getItem(directoryKey(id))).toBeNull();
    const read = await api.request('GET', `${path}/${id}`, { token: inTen });
    expect(read.status, read.text).toBe(200);
    expect((await api.request('DELETE', `${path}/${id}`, { token: inOne })).status).toBe(204);
    expect((await api.request('GET', `${path}/${id}`, { token: inOne })).status).toBe(404);
  });
});

describe('a path with a bare id costs the same for a caller in 1 or 10 organisations', () => {
  it('GET /v3/streets/{id}: the entry with the credentials, then the street in its organisation alone; once seen, the street with the credentials', async () => {
    const record = await street(home.org.id, 'Directory Lane');
    const path = `/v3/streets/${record.id}`;
    await api.get(`/v3/orgs/${home.org.id}/places/streets?page[limit]=1`, inTen); // warm: the caller's organisations known
    const first = await readsOf(() => api.get(path, inTen));
    expect(first.response.status, first.response.text).toBe(200);
    expect(first.calls).toEqual([
      { command: 'BatchGetItemCommand', keys: [`ID#${record.id} ID`] },
      { command: 'BatchGetItemCommand', keys: [`${record.pk} ${record.sk}`] },
    ]);
    const again = await readsOf(() => api.get(path, inTen));
    expect(again.calls).toEqual([{ command: 'BatchGetItemCommand', keys: [`${record.pk} ${record.sk}`] }]);
    await api.get(path, inOne); // warm
    const one = await readsOf(() => api.get(path, inOne));
    expect(one.calls).toEqual(again.calls);
  });

  it("a children list, GET /v3/folders/{id}/documents: the folder's entry with the credentials, then the folder in its organisation alone, as many calls and keys as a caller in one", async () => {
    const folder = await createFolder(api, home.org.id, { token: inOne }, 'Directory folder');
    const path = `/v3/folders/${folder}/documents`;
    await api.get(path, inOne); // warm
    const one = await readsOf(() => api.get(path, inOne));
    const ten = await readsOf(() => api.get(path, inTen));
    expect([one.response.status, ten.response.status]).toEqual([200, 200]);
    expect(ten.response.body.data).toEqual(one.response.body.data);
    // The same calls and as many keys: the entry where a caller in one organisation reads its settings
    // (the page size that organisation sets) with the credentials.
    expect(ten.calls.map((call) => call.command)).toEqual(one.calls.map((call) => call.command));
    expect(keysAsked(ten.calls)).toBe(keysAsked(one.calls));
    expect(ten.calls.flatMap((call) => call.keys)).toContain(`ID#${folder} ID`);
  });
});

describe("another tenant's id leaks nothing through the directory", () => {
  /** The answer and its reads with the id asked for written `<id>`, to compare two ids. */
  const seen = async (template: string, id: string) => {
    const { response, calls } = await readsOf(() => api.get(template.replace('<id>', id), inTen));
    const anonymous = (text: string) => text.replaceAll(id, '<id>');
    // Each error object's own id names that occurrence, different for any two answers.
    const errors = (response.body.errors ?? []).map(({ id: _, ...error }: { id: string }) => error);
    return {
      status: response.status,
      body: anonymous(JSON.stringify({ ...response.body, errors })),
      calls: calls.map((call) => ({ command: call.command, keys: call.keys.map(anonymous) })),
    };
  };

  it.each([
    ['a record by its bare id', '/v3/streets/<id>'],
    ['a children list under it', '/v3/folders/<id>/documents'],
  ])(
    '%s: the same status, body and reads (calls and keys) as an id that does not exist',
    async (_, template) => {
      const owner = await api.token(other.admin);
      const theirs = template.includes('folders')
        ? await createFolder(api, other.org.id, { token: owner }, 'Theirs')
        : (await street(other.org.id, 'Their Lane')).id;
      expect(await getItem(directoryKey(theirs))).toMatchObject({ org_id: other.org.id });
      // Read by its owner on this container, which so learns where it lies: a hint the caller must not use.
      expect((await api.get(template.replace('<id>', theirs), owner)).status).toBe(200);
      await api.get(template.replace('<id>', uuidv7()), inTen); // warm
      const [random, foreign] = [await seen(template, uuidv7()), await seen(template, theirs)];
      expect(foreign.status).toBe(404);
      expect(foreign).toEqual(random);
    },
  );

  it('issue 42, item 7: an entry whose record is gone (its removal, written after the deletion committed, lost) answers as an id that does not exist', async () => {
    // Never read before on this container, so the caller's reads start from its entry.
    const gone = await street(home.org.id, 'Gone Lane');
    await commit(scopeOf([home.org.id]), [{ delete: gone }]);
    expect(await getItem(directoryKey(gone.id))).toBeNull();
    // As if the function stopped between the deletion and the entry's removal.
    await documents.send(new PutCommand({ TableName: tableName, Item: directoryEntry(gone) }));
    const [random, dangling] = [
      await seen('/v3/streets/<id>', uuidv7()),
      await seen('/v3/streets/<id>', gone.id),
    ];
    expect(dangling.status).toBe(404);
    expect(dangling.body).toEqual(random.body);
    // The entry was read, and pointed at its organisation alone.
    expect(dangling.calls.flatMap((call) => call.keys)).toContain('ID#<id> ID');
  });
});
