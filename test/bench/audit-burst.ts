/**
 * The audit of a burst (issue 42, item 4): `BURST` manufacturers created through the HTTP API, `WRITERS`
 * at a time, while the table's stream is polled as `npm start` polls it (every 10 ms) and handed to the
 * stream's function; from the last write's answer, how long until half and 90 % of their audit entries
 * are counted (the organisation's count, read by key every 10 ms). Run twice over fresh bursts: with the
 * record stage serial (each event's consumers in turn, as before) and side by side per subject (now).
 * Locally the stream carries every item written (records, claims, counters, entries), 100 a batch, so a
 * batch holds fewer events than in AWS, where the mapping's filter hands over events only.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { consumeWith } from '#functions/events/consume-batch';
import { getItem } from '#shared/data/repository';
import { counterKey } from '#shared/data/stored-resource';
import { loadConsumers } from '#shared/engine/event-consumers';
import { eventConsumers } from '#shared/routes';
import { loadConsumer } from '../../functions/events/consume';
import { loadDemoData } from '../../infra/local/demo-data';
import { startEventStream } from '../../infra/local/event-stream';
import { startLocalApi } from '../../infra/local/http-adapter';

const BURST = Number(process.env.BENCH_BURST ?? 300);
const WRITERS = 10;

export const benchAuditBurst = async (apiPort: number) => {
  const demo = await loadDemoData();
  const org = demo.organisations[0];
  if (!org?.user) throw new Error('demo data has no session user');
  const headers = {
    'x-session-token': org.user.session_token,
    'content-type': 'application/vnd.api+json',
    accept: 'application/vnd.api+json',
  };
  const consumers = await loadConsumers(eventConsumers, loadConsumer);
  const ways = {
    serial: consumeWith(consumers.map(({ stage: _stage, ...consumer }) => consumer)),
    'side by side': consumeWith(consumers),
  };
  let handler: (event: DynamoDBStreamEvent) => ReturnType<typeof ways.serial> = ways.serial;
  const stream = await startEventStream({
    endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    tableName: process.env.TABLE_NAME ?? '',
    handler: (event) => handler(event),
    intervalMs: 10,
  });
  const { server, url } = await startLocalApi(apiPort);
  const audited = async () =>
    ((await getItem<{ count?: number }>(counterKey(org.id, 'audit-events'), true))?.count ?? 0) as number;
  try {
    await stream.drain();
    const figures: Record<string, string> = {};
    for (const [way, consume] of Object.entries(ways)) {
      handler = consume;
      const from = await audited();
      const started = performance.now();
      let next = 0;
      const write = async () => {
        while (next < BURST) {
          const i = next++;
          const res = await fetch(`${url}/v3/orgs/${org.id}/assets/equipment-manufacturers`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              data: { type: 'equipment-manufacturers', attributes: { name: `Burst ${way} ${i}` } },
            }),
          });
          if (res.status !== 201) throw new Error(`${res.status}: ${await res.text()}`);
        }
      };
      await Promise.all(Array.from({ length: WRITERS }, write));
      const written = performance.now();
      const after: Record<number, number> = {};
      while (after[90] === undefined && performance.now() - written < 120_000) {
        const done = (await audited()) - from;
        for (const share of [50, 90])
          if (after[share] === undefined && done >= (BURST * share) / 100)
            after[share] = performance.now() - written;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await stream.drain();
      figures[`${way}: ${BURST} creates written in`] = `${((written - started) / 1000).toFixed(1)} s`;
      figures[`${way}: 50 % / 90 % audited, after the last write`] =
        `${((after[50] ?? Number.NaN) / 1000).toFixed(1)} s / ${((after[90] ?? Number.NaN) / 1000).toFixed(1)} s`;
    }
    return figures;
  } finally {
    await stream.stop();
    server.closeAllConnections();
    server.close();
  }
};
