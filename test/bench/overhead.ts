/**
 * Handler overhead: warm in-process invocations of GET /v3/orgs/{org_id}/assets/equipment/{id} (the
 * deployed handler module, session-authenticated) against a bare GetCommand for the same item on the
 * same client, interleaved so all see the same machine; p50 and p99 of each and their ratios. A bare
 * BatchGetCommand of the three keys the handler reads (session, principal, item) splits the difference
 * into what the data costs and what the handler's own code costs.
 */
import { randomUUID } from 'node:crypto';
import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { hashSessionToken, sessionPrincipal } from '#shared/auth/sessions';
import { documents, dynamodb, tableName } from '#shared/data/clients';
import { principalKey } from '#shared/data/principals';
import { queryItems } from '#shared/data/repository';
import { sessionKey } from '#shared/data/sessions';
import { collectionPartition, type StoredResource } from '#shared/data/stored-resource';
import { routeById } from '#shared/routes';
import { isBudgetLease } from '../support/request-overhead';
import { demoData } from './demo';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

export const benchOverhead = async (invocations = 1000) => {
  const demo = await demoData();
  const org = demo.organisations[0];
  if (!org?.user) throw new Error('demo data has no session user');
  const [item] = await queryItems<StoredResource>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': collectionPartition(org.id, 'equipment-items') },
    Limit: 1,
  });
  if (!item) throw new Error('demo data has no equipment');
  const { handlerFor } = await import('#shared/engine/generic-endpoints');
  const handler = await handlerFor(routeById('getEquipment'));
  const path = `/v3/orgs/${org.id}/assets/equipment/${item.id}`;
  const event = () => ({
    version: '2.0',
    routeKey: 'GET /v3/orgs/{org_id}/assets/equipment/{equipment_id}',
    rawPath: path,
    rawQueryString: '',
    headers: {
      'x-session-token': org.user?.session_token ?? '',
      host: 'localhost',
      'x-forwarded-proto': 'http',
    },
    pathParameters: { org_id: org.id, equipment_id: item.id },
    requestContext: {
      accountId: 'bench',
      apiId: 'bench',
      domainName: 'localhost',
      domainPrefix: 'bench',
      http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: randomUUID(),
      routeKey: 'GET /v3/orgs/{org_id}/assets/equipment/{equipment_id}',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    isBase64Encoded: false,
  });
  const context = {
    awsRequestId: 'bench',
    functionName: 'bench',
    getRemainingTimeInMillis: () => 10_000,
  } as unknown as Context as never;
  const bare = () =>
    documents.send(new GetCommand({ TableName: tableName, Key: { pk: item.pk, sk: item.sk } }));
  const token = org.user.session_token;
  const sameKeys = [sessionKey(hashSessionToken(token)), principalKey(sessionPrincipal(token) ?? ''), item];
  const bareBatch = () =>
    documents.send(
      new BatchGetCommand({
        RequestItems: { [tableName]: { Keys: sameKeys.map(({ pk, sk }) => ({ pk, sk })) } },
      }),
    );
  const timed = async (run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    return performance.now() - started;
  };
  // Warm both paths (module load, grant cache, connections) before measuring.
  for (let i = 0; i < 50; i++) {
    await handler(event() as never, context);
    await bare();
    await bareBatch();
  }
  const handlerTimes: number[] = [];
  const bareTimes: number[] = [];
  const batchTimes: number[] = [];
  // The handler's DynamoDB calls per invocation, counted on the service's client.
  const commands: string[] = [];
  let counting = false;
  dynamodb.middlewareStack.add(
    (next, ctx) => async (args) => {
      if (counting && !isBudgetLease(args.input)) commands.push(ctx.commandName ?? '');
      return next(args);
    },
    { step: 'initialize', name: 'overheadCalls' },
  );
  for (let i = 0; i < invocations; i++) {
    const started = performance.now();
    counting = true;
    const result = (await handler(event() as never, context)) as { statusCode?: number };
    counting = false;
    handlerTimes.push(performance.now() - started);
    if (result.statusCode !== 200) throw new Error(`handler answered ${result.statusCode}`);
    bareTimes.push(await timed(bare));
    batchTimes.push(await timed(bareBatch));
  }
  for (const times of [handlerTimes, bareTimes, batchTimes]) times.sort((a, b) => a - b);
  const [h50, h99, b50, b99, s50, s99] = [handlerTimes, bareTimes, batchTimes].flatMap((times) => [
    percentile(times, 0.5),
    percentile(times, 0.99),
  ]) as [number, number, number, number, number, number];
  return {
    invocations,
    handler_p50_ms: h50.toFixed(2),
    handler_p99_ms: h99.toFixed(2),
    bare_get_p50_ms: b50.toFixed(2),
    bare_get_p99_ms: b99.toFixed(2),
    p50_ratio: (h50 / b50).toFixed(2),
    p99_ratio: (h99 / b99).toFixed(2),
    bare_batch_of_same_3_keys_p50_ms: s50.toFixed(2),
    bare_batch_of_same_3_keys_p99_ms: s99.toFixed(2),
    p50_ratio_to_same_batch: (h50 / s50).toFixed(2),
    p99_ratio_to_same_batch: (h99 / s99).toFixed(2),
    handler_calls_per_invocation: `${commands.length / invocations} (${[...new Set(commands)].join(', ')}; grants cached)`,
    bare_calls_per_invocation: '1 (GetItemCommand)',
  };
};
