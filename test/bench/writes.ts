/**
 * Write units per create, update and delete (issue 42, item 7): the request's own writes and then its
 * events' consumers' (the audit entry, and whatever else the organisation's events start), two ways: as
 * DynamoDB Local reports them (ReturnConsumedCapacity TOTAL on every call of the service's client), and by
 * AWS's per-item rule (`aws-write-units.ts`: each item's started kilobytes, twice in a transaction, each
 * index once more), which Local does not follow. The request budget's lease (one update per fiftieth of a
 * budget, admission overhead) is left out. Each write is a plain one through the HTTP API,
 * its events handed to the stream's function as the stream would, one operation at a time, `REPEATS`
 * times; the median of each figure is reported.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { dynamodb } from '#shared/data/clients';
import { loadDemoData } from '../../infra/local/demo-data';
import { startLocalApi } from '../../infra/local/http-adapter';
import { deliverEvents } from '../support/event-stream';
import { isBudgetLease } from '../support/request-overhead';
import { metered } from './aws-write-units';

const REPEATS = 5;
const WRITES = /^(TransactWriteItems|PutItem|UpdateItem|DeleteItem|BatchWriteItem)Command$/;

const capacityOf = (consumed: unknown): number =>
  (Array.isArray(consumed) ? consumed : [consumed]).reduce(
    (sum: number, c) => sum + ((c as { CapacityUnits?: number } | undefined)?.CapacityUnits ?? 0),
    0,
  );

/**
 * The written types: an equipment item (a claim, two sort indexes and a status index, 17 relationships), a
 * manufacturer (a name) and a vehicle (a registration, a status index, an id directory entry, a history).
 */
const SUBJECTS = {
  equipment: {
    path: 'assets/equipment',
    type: 'equipment-items',
    create: (i: number) => ({ serial: `BW-${i}`, description: 'Rotary hammer' }),
    update: { description: 'Hammer drill' },
  },
  manufacturer: {
    path: 'assets/equipment-manufacturers',
    type: 'equipment-manufacturers',
    create: (i: number) => ({ name: `Maker ${i}` }),
    update: { name: 'Maker renamed' },
  },
  // Found by its id alone (`/v3/vehicles/{vehicle_id}`): it keeps an id directory entry, and a history.
  vehicle: {
    path: 'assets/vehicles',
    item: 'vehicles',
    type: 'vehicles',
    create: (i: number) => ({ registration: `BW ${i}` }),
    update: { colour: 'grey' },
  },
} as const;

/** A record's path: under its collection, or its type's own bare one. */
const itemUrl = (url: string, collection: string, subject: object, id: string) =>
  'item' in subject ? `${url}/v3/${subject.item}/${id}` : `${collection}/${id}`;

const MEASURES = { local: 'as DynamoDB Local bills', aws: "by AWS's per-item rule" } as const;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Units so far: as DynamoDB Local reports them, and by AWS's per-item rule, and that rule's units by item. */
interface Units {
  local: number;
  aws: number;
  items: string[];
}

const none = (): Units => ({ local: 0, aws: 0, items: [] });

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** An item written, named by its key with ids left out: `ORG#<id>#equipment-items <id>: 5`. */
const itemUnits = (key: Record<string, AttributeValue>, units: number) => {
  const [pk = '', sk = ''] = [key.pk?.S ?? '', key.sk?.S ?? ''].map((part) => part.replace(UUID, '<id>'));
  return `${pk} ${sk === pk || sk.includes('<id>') || sk === 'ID' ? sk : '<value>'}: ${units}`;
};

export const benchWrites = async (apiPort: number) => {
  let units = none();
  dynamodb.middlewareStack.add(
    (next) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      return next(args);
    },
    { step: 'initialize', name: 'askWriteUnits' },
  );
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      // Marshalled by now: the lease is known by its key's value.
      const key = (args.input as { Key?: Record<string, AttributeValue> }).Key;
      if (!WRITES.test(context.commandName ?? '') || isBudgetLease({ Key: key && unmarshall(key) }))
        return next(args);
      const {
        out,
        units: aws,
        byItem,
      } = await metered(dynamodb, args.input as Record<string, unknown>, () => next(args));
      units.local += capacityOf((out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity);
      units.aws += aws;
      units.items.push(...byItem.map(({ key, units }) => itemUnits(key, units)));
      return out;
    },
    // After marshalling: the meter reads the items' keys in DynamoDB's own terms.
    { step: 'build', name: 'countWriteUnits' },
  );
  const demo = await loadDemoData();
  const org = demo.organisations[0];
  if (!org?.user) throw new Error('demo data has no session user');
  const headers = {
    'x-session-token': org.user.session_token,
    'content-type': 'application/vnd.api+json',
    accept: 'application/vnd.api+json',
  };
  const { server, url } = await startLocalApi(apiPort);
  /** The units a request writes, then those its events' consumers write. */
  const measured = async (send: () => Promise<Response>, status: number) => {
    await deliverEvents(org.id);
    units = none();
    const res = await send();
    if (res.status !== status) throw new Error(`${res.status}: ${await res.text()}`);
    const request = units;
    units = none();
    await deliverEvents(org.id);
    return { request, consumers: units, body: res.status === 204 ? null : await res.json() };
  };
  try {
    const figures: Record<string, string> = {};
    for (const [name, subject] of Object.entries(SUBJECTS)) {
      const runs: Record<'create' | 'update' | 'delete', { request: Units; consumers: Units }[]> = {
        create: [],
        update: [],
        delete: [],
      };
      for (let i = 0; i < REPEATS; i++) {
        const collection = `${url}/v3/orgs/${org.id}/${subject.path}`;
        const created = await measured(
          () =>
            fetch(collection, {
              method: 'POST',
              headers,
              body: JSON.stringify({
                data: { type: subject.type, attributes: subject.create(Date.now() + i) },
              }),
            }),
          201,
        );
        runs.create.push(created);
        const id = (created.body as { data: { id: string } }).data.id;
        runs.update.push(
          await measured(
            () =>
              fetch(itemUrl(url, collection, subject, id), {
                method: 'PATCH',
                headers,
                body: JSON.stringify({ data: { type: subject.type, id, attributes: subject.update } }),
              }),
            200,
          ),
        );
        runs.delete.push(
          await measured(
            () => fetch(itemUrl(url, collection, subject, id), { method: 'DELETE', headers }),
            204,
          ),
        );
      }
      for (const [op, list] of Object.entries(runs)) {
        for (const measure of ['local', 'aws'] as const) {
          const request = median(list.map((r) => r.request[measure]));
          const consumers = median(list.map((r) => r.consumers[measure]));
          const total = median(list.map((r) => r.request[measure] + r.consumers[measure]));
          figures[`${name} ${op}: write units ${MEASURES[measure]}, request + consumers = total`] =
            `${request} + ${consumers} = ${total}`;
        }
        // The last run's items by AWS's rule: what each write is made of.
        const last = list.at(-1);
        if (last)
          figures[`${name} ${op}: units by item (AWS's rule), request; consumers`] =
            `${last.request.items.join(', ')}; ${last.consumers.items.join(', ')}`;
      }
    }
    return figures;
  } finally {
    dynamodb.middlewareStack.remove('askWriteUnits');
    dynamodb.middlewareStack.remove('countWriteUnits');
    server.closeAllConnections();
    server.close();
  }
};
