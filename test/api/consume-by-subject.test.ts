/**
 * Issue 42, item 4: the stream's function runs the `record` stage (the audit entry) on a batch's subjects
 * side by side, each subject's events in order, and stops a subject at its first failure; the other
 * stages run event by event, never for an event at or after the first failed record; the earliest failed
 * event is the batch item failure Lambda hands the batch again from (`functions/events/consume-batch.ts`).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { consumeWith } from '#functions/events/consume-batch';
import type { StoredEvent } from '#shared/data/events';
import { uuidv7 } from '#shared/data/ids';
import type { EventConsumer } from '#shared/engine/event-consumers';
import { streamRecordOf } from '../support/event-stream';

const org = uuidv7();
const [a, b] = [uuidv7(), uuidv7()];
const eventAbout = (subject: string, name: string): StoredEvent => {
  const id = uuidv7();
  return {
    pk: `EVENTS#${org}`,
    sk: id,
    gsi1pk: `EVENTS#${subject}`,
    gsi1sk: id,
    id,
    org_id: org,
    event: `vehicle.${name}`,
    subject: { type: 'vehicles', id: subject },
    actor: { kind: 'system', id: 'test' },
    occurred_at: new Date().toISOString(),
    data: { type: 'vehicles', id: subject },
    expires_at: 0,
  };
};

/** A batch A1 B1 A2 B2, a record consumer taking 30 ms an event, and a later stage; what each saw. */
const run = async (failing: ReadonlySet<string> = new Set()) => {
  const events = [eventAbout(a, 'a1'), eventAbout(b, 'b1'), eventAbout(a, 'a2'), eventAbout(b, 'b2')];
  const records = events.map(streamRecordOf);
  const recorded: string[] = [];
  const delivered: string[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const consumers: EventConsumer[] = [
    {
      name: 'record',
      stage: 'record',
      handle: async (event) => {
        mostAtOnce = Math.max(mostAtOnce, ++running);
        await new Promise((resolve) => setTimeout(resolve, 30));
        running--;
        if (failing.has(event.event)) throw new Error('not now');
        recorded.push(event.event);
      },
    },
    { name: 'deliver', stage: 'deliver', handle: async (event) => void delivered.push(event.event) },
  ];
  const { batchItemFailures } = await consumeWith(consumers)({ Records: records as DynamoDBRecord[] });
  const sequences = records.map((r) => r.dynamodb.SequenceNumber);
  return {
    recorded,
    delivered,
    mostAtOnce,
    failedAt: batchItemFailures.map((f) => sequences.indexOf(f.itemIdentifier)),
  };
};

describe('issue 42: a batch’s subjects are recorded side by side, each in order', () => {
  it('two subjects’ records run at once, each subject’s in order, and later stages follow in the batch’s order', async () => {
    const seen = await run();
    expect(seen.mostAtOnce).toBe(2);
    expect(seen.recorded.filter((e) => e.startsWith('vehicle.a'))).toEqual(['vehicle.a1', 'vehicle.a2']);
    expect(seen.recorded.filter((e) => e.startsWith('vehicle.b'))).toEqual(['vehicle.b1', 'vehicle.b2']);
    expect(seen.delivered).toEqual(['vehicle.a1', 'vehicle.b1', 'vehicle.a2', 'vehicle.b2']);
    expect(seen.failedAt).toEqual([]);
  });

  it('a subject whose record fails is stopped there; others go on; no later stage runs from that event; it is the failure reported', async () => {
    const seen = await run(new Set(['vehicle.a1']));
    expect(seen.recorded).toEqual(['vehicle.b1', 'vehicle.b2']);
    expect(seen.delivered).toEqual([]);
    expect(seen.failedAt).toEqual([0]);
  });

  it('with failures in two subjects, the earliest in the batch is reported, and the events before it are delivered', async () => {
    const seen = await run(new Set(['vehicle.b2', 'vehicle.a2']));
    expect(seen.recorded.sort()).toEqual(['vehicle.a1', 'vehicle.b1']);
    expect(seen.delivered).toEqual(['vehicle.a1', 'vehicle.b1']);
    expect(seen.failedAt).toEqual([2]);
  });
});
