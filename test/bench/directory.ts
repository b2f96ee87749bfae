/**
 * The id directory (issue 42, item 2): a user who is admin in 1, 10 and 100 organisations reads a street
 * by its bare id (GET /v3/streets/{id}) and a folder's children (GET /v3/folders/{id}/documents), through
 * the deployed handler modules in process, warm, session-authenticated. Counted on the service's own
 * client, besides grant evaluation (cached in a warm container) and budget leases: DynamoDB round trips
 * (calls made), the sequential round trips among them (the calls the request waits through one after
 * another, the latency a client sees: a call that starts after an earlier one ended waits for it, one
 * that starts before every earlier one ended runs beside them; `test/support/round-trips.ts`) and keys
 * asked, credentials included. Each is measured for a record with its directory entry, seen by
 * this container before or not, and for one without (as every record was before migration 4: the lookup
 * in each organisation the caller reads). Then what the entry costs a create: its transaction's items and
 * write units, with and without it.
 */
import { randomUUID } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { documents as documentRecords, folders } from '#functions/documents/definitions';
import { grantRecord, grantWrites } from '#functions/iam/grant-writes';
import { streets } from '#functions/places/definitions';
import { startSession } from '#shared/auth/sessions';
import { documents, dynamodb, tableName } from '#shared/data/clients';
import { directoryKey } from '#shared/data/id-directory';
import { uuidv7 } from '#shared/data/ids';
import { scopeOf } from '#shared/data/scope';
import { checkItem } from '#shared/data/storage-limits';
import type { ItemKey, StoredResource } from '#shared/data/stored-resource';
import { buildTransaction, commit } from '#shared/data/transaction';
import { fileChild } from '#shared/engine/children';
import { newRecord } from '#shared/engine/record-writes';
import { routeById } from '#shared/routes';
import { createOrganisation, createUser } from '../../infra/local/records';
import { isBudgetLease } from '../support/request-overhead';
import { sequentialTrips, type Timed } from '../support/round-trips';

type Input = {
  RequestItems?: Record<string, { Keys?: { pk: string }[] }>;
  Key?: { pk: string };
  ExpressionAttributeValues?: Record<string, unknown>;
};

/** Reads that evaluate grants: a warm container has them cached (GRANT_CACHE_SECONDS). */
const evaluatesGrants = (command: string, input: Input) => {
  if (command === 'QueryCommand') return input.ExpressionAttributeValues?.[':g'] === 'GRANT#';
  const keys = Object.values(input.RequestItems ?? {}).flatMap((r) => r.Keys ?? []);
  return keys.length > 0 && keys.every((k) => /#(roles|role-groups)$/.test(k.pk));
};

const context = {
  awsRequestId: 'bench',
  functionName: 'bench',
  getRemainingTimeInMillis: () => 10_000,
} as unknown as Context as never;

const eventFor = (routeKey: string, path: string, params: Record<string, string>, token: string) => ({
  version: '2.0',
  routeKey,
  rawPath: path,
  rawQueryString: '',
  headers: { 'x-session-token': token, host: 'localhost', 'x-forwarded-proto': 'http' },
  pathParameters: params,
  requestContext: {
    accountId: 'bench',
    apiId: 'bench',
    domainName: 'localhost',
    domainPrefix: 'bench',
    http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
    requestId: randomUUID(),
    routeKey,
    stage: '$default',
    time: new Date().toUTCString(),
    timeEpoch: Date.now(),
  },
  isBase64Encoded: false,
});

export const benchDirectory = async (sizes = [1, 10, 100]) => {
  const { handlerFor } = await import('#shared/engine/generic-endpoints');
  const getStreet = routeById('getStreet');
  const listDocuments = routeById('listDocuments');
  const streetHandler = await handlerFor(getStreet);
  // A bespoke route: its own module's handler (a folder's documents, filed under it).
  const { handler: documentsHandler } = await import('#functions/documents/documents/list');
  const orgs: StoredResource[] = [];
  for (let i = 0; i < Math.max(...sizes); i++)
    orgs.push(
      await createOrganisation({
        name: `Directory ${i}`,
        slug: `directory-${i}-${uuidv7()}`,
        description: '',
      }),
    );
  const home = orgs[0] as StoredResource;

  const calls: (Timed & { keys: number; switches: number })[] = [];
  let counting = false;
  dynamodb.middlewareStack.add(
    (next, ctx) => async (args) => {
      const input = args.input as Input;
      if (counting && !isBudgetLease(input) && !evaluatesGrants(ctx.commandName ?? '', input)) {
        const keys = [
          ...Object.values(input.RequestItems ?? {}).flatMap((r) => r.Keys ?? []),
          ...(input.Key ? [input.Key] : []),
        ];
        const switches = keys.filter((key) => key.pk.endsWith('#feature-configurations')).length;
        const call = { keys: keys.length - switches, switches, started: performance.now(), ended: Infinity };
        calls.push(call);
        try {
          return await next(args);
        } finally {
          call.ended = performance.now();
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'directoryBench' },
  );
  const measure = async (handler: typeof streetHandler, event: object) => {
    calls.length = 0;
    counting = true;
    const result = (await handler(event as never, context)) as { statusCode?: number };
    counting = false;
    if (result.statusCode !== 200) throw new Error(`answered ${result.statusCode}`);
    const keys = calls.reduce((sum, call) => sum + call.keys, 0);
    const switches = calls.reduce((sum, call) => sum + call.switches, 0);
    return {
      round_trips: calls.length,
      sequential_round_trips: sequentialTrips(calls),
      keys,
      feature_switches: switches,
    };
  };

  const figures: Record<string, Awaited<ReturnType<typeof measure>> | string> = {};
  let benchFolder: StoredResource | undefined;
  for (const size of sizes) {
    const user = await createUser(home.id, {
      email: `directory-${size}@bench.example`,
      first_name: 'Dora',
      last_name: `In ${size}`,
    });
    // Grants in the other organisations stand for bridges (as tests' are): the user is a record of its
    // home organisation only, so only there does it keep the grant's name.
    for (const org of orgs.slice(0, size))
      await commit(
        scopeOf([org.id]),
        grantWrites(grantRecord(org.id, { role: 'admin', user: user.id })).filter(
          (op) => org.id === home.id || !('keep' in op),
        ),
      );
    const { token } = await startSession(user.id);
    const street = async () => {
      const record = newRecord(streets, home.id, { attributes: { name: 'Bench Lane', usrn: '30100004' } });
      await commit(scopeOf([home.id]), [{ create: record }]);
      return record;
    };
    const readStreet = (id: string) =>
      eventFor(`GET ${getStreet.path}`, `/v3/streets/${id}`, { street_id: id }, token);
    const folder = newRecord(folders, home.id, { attributes: { name: `Bench ${size}` } });
    await commit(scopeOf([home.id]), [{ create: folder }]);
    benchFolder = folder;
    const readDocuments = (id: string) =>
      eventFor(`GET ${listDocuments.path}`, `/v3/folders/${id}/documents`, { folder_id: id }, token);
    // Warm: modules, connections, the caller's grants and the area's switches.
    const warm = await street();
    for (let i = 0; i < 3; i++) await streetHandler(readStreet(warm.id) as never, context);
    await documentsHandler(readDocuments(folder.id) as never, context);

    const seen = await street();
    figures[`get_by_id_in_${size}_first_sight`] = await measure(streetHandler, readStreet(seen.id));
    figures[`get_by_id_in_${size}_seen_before`] = await measure(streetHandler, readStreet(seen.id));
    const old = await street();
    await documents.send(new DeleteCommand({ TableName: tableName, Key: directoryKey(old.id) }));
    figures[`get_by_id_in_${size}_no_entry_as_before`] = await measure(streetHandler, readStreet(old.id));
    figures[`children_list_in_${size}`] = await measure(documentsHandler, readDocuments(folder.id));
    // A folder with a page of documents: its organisation is also named by the page.
    const filled = newRecord(folders, home.id, { attributes: { name: `Bench filled ${size}` } });
    await commit(scopeOf([home.id]), [{ create: filled }]);
    for (const name of ['a.pdf', 'b.pdf', 'c.pdf']) {
      const attributes = { name, status: 'pending', content_type: null, size: null, checksum: null };
      const document = newRecord(documentRecords, home.id, {
        attributes: { ...attributes, version_count: 1 },
        rels: { folder: filled.id, current_version: null },
      });
      await commit(scopeOf([home.id]), [{ create: fileChild(filled, document) }]);
    }
    await documentsHandler(readDocuments(filled.id) as never, context);
    figures[`children_list_in_${size}_of_3_documents`] = await measure(
      documentsHandler,
      readDocuments(filled.id),
    );
    const oldFolder = newRecord(folders, home.id, { attributes: { name: `Bench old ${size}` } });
    await commit(scopeOf([home.id]), [{ create: oldFolder }]);
    await documents.send(new DeleteCommand({ TableName: tableName, Key: directoryKey(oldFolder.id) }));
    figures[`children_list_in_${size}_no_entry_as_before`] = await measure(
      documentsHandler,
      readDocuments(oldFolder.id),
    );
  }
  dynamodb.middlewareStack.remove('directoryBench');

  // A create's transaction as committed, then its entry's own put (issue 42, item 7: outside it), with
  // DynamoDB's own count.
  const record = newRecord(streets, home.id, { attributes: { name: 'Bench Row', usrn: '30100005' } });
  const { items, directory } = buildTransaction([{ create: record }], {
    actor: scopeOf([]).actor,
    at: Date.now(),
  });
  const out = await documents.send(
    new TransactWriteCommand({ TransactItems: items, ReturnConsumedCapacity: 'TOTAL' }),
  );
  const units = out.ConsumedCapacity?.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0) ?? 0;
  figures.street_create_transaction = `${items.length} items, ${units} write units`;
  const entries = directory.flatMap(({ put }) => (put ? [put] : []));
  let entryUnits = 0;
  for (const Item of entries)
    entryUnits +=
      (await documents.send(new PutCommand({ TableName: tableName, Item, ReturnConsumedCapacity: 'TOTAL' })))
        .ConsumedCapacity?.CapacityUnits ?? 0;
  figures.street_create_entry_after_it = `${entries.length} item, ${entryUnits} write units`;
  // What a first sight in one round trip would carry by id alone (docs/performance.md): sizes as stored,
  // by AWS's rules (`checkItem`, as the growth table measures).
  const bytesOf = async ({ pk, sk }: ItemKey) =>
    checkItem(
      (
        await dynamodb.send(
          new GetItemCommand({ TableName: tableName, Key: { pk: { S: pk }, sk: { S: sk } } }),
        )
      ).Item,
    );
  figures.street_record_bytes = `${await bytesOf(record)}`;
  if (benchFolder) figures.folder_record_bytes = `${await bytesOf(benchFolder)}`;
  figures.directory_entry_bytes = `${await bytesOf(directoryKey(record.id))}`;
  return figures;
};
