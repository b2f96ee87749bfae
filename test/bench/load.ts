/**
 * Load through the local HTTP adapter with autocannon: a list route and a single-item route, at 10 and
 * 50 connections, for BENCH_LOAD_SECONDS (20 by default) each; requests/s, p50/p99 latency, non-2xx.
 */
import autocannon from 'autocannon';
import { queryItems } from '#shared/data/repository';
import { collectionPartition, type StoredResource } from '#shared/data/stored-resource';
import { loadDemoData } from '../../infra/local/demo-data';
import { freePort } from '../../infra/local/engines';
import { startLocalApi } from '../../infra/local/http-adapter';

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);

export const benchLoad = async () => {
  const demo = await loadDemoData();
  const org = demo.organisations[0];
  if (!org?.user) throw new Error('demo data has no session user');
  const [item] = await queryItems<StoredResource>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': collectionPartition(org.id, 'equipment-items') },
    Limit: 1,
  });
  const { server, url } = await startLocalApi(await freePort());
  const targets = {
    list: `/v3/orgs/${org.id}/assets/equipment?page[limit]=25&include=model.manufacturer`,
    single: `/v3/orgs/${org.id}/assets/equipment/${item?.id}`,
  };
  const results: Record<string, string> = {};
  try {
    for (const [name, path] of Object.entries(targets)) {
      for (const connections of [10, 50]) {
        const run = await autocannon({
          url: `${url}${path}`,
          connections,
          duration: SECONDS,
          headers: { 'x-session-token': org.user.session_token },
        });
        results[`${name} @${connections}`] =
          `${Math.round(run.requests.average)} req/s, p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms, non-2xx ${run.non2xx}, errors ${run.errors}`;
      }
    }
  } finally {
    server.closeAllConnections();
    await new Promise((done) => server.close(() => done(undefined)));
  }
  return { seconds_each: SECONDS, ...results };
};
