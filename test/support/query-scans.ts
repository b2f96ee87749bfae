/**
 * What a request reads from DynamoDB, counted on the service's own client while `send` runs. The document
 * client's input still holds plain values at this step (it marshals later in the stack), so a Query's
 * partition is among its values as written.
 */
import { dynamodb } from '#shared/data/clients';
import type { Timed } from './round-trips';

/**
 * One DynamoDB call a request made besides authenticating it, and how many items it read; when it started
 * and ended, for `sequentialTrips`.
 */
export interface Read extends Timed {
  command: string;
  items: number;
  /** A BatchGetItem's keys asked (each costs a read, found or not). */
  asked?: number;
  /** A Query's values as written (its partition among them: `:pk`, or a tree's `:root`). */
  values?: string[];
  /** A BatchGetItem's partitions asked, as written (besides authentication's). */
  partitions?: string[];
}

type Value = unknown;
type Input = {
  RequestItems?: Record<string, { Keys?: { pk?: Value }[] }>;
  ExpressionAttributeValues?: Record<string, Value>;
};
type Output = { ScannedCount?: number; Item?: object; Responses?: Record<string, { pk?: Value }[]> };

/** Authentication's own items (the principal, its grants, a session), read with every request. */
const credentialItem = (item: { pk?: Value }) =>
  typeof item.pk === 'string' && /^(PRINCIPAL|SESSION)#/.test(item.pk);

/** The read of one call, or null for one that reads only what authentication reads. */
const readOf = (command: string, input: Input, output: Output): Omit<Read, keyof Timed> | null => {
  if (command === 'QueryCommand') {
    const values = input.ExpressionAttributeValues ?? {};
    if (credentialItem({ pk: values[':p'] ?? values[':pk'] })) return null;
    const strings = Object.values(values).filter((v): v is string => typeof v === 'string');
    return { command, items: output.ScannedCount ?? 0, values: strings };
  }
  if (command === 'GetItemCommand') return { command, items: output.Item ? 1 : 0 };
  if (command === 'BatchGetItemCommand') {
    const keys = Object.values(input.RequestItems ?? {}).flatMap((r) => r.Keys ?? []);
    if (keys.every(credentialItem)) return null;
    const items = Object.values(output.Responses ?? {}).flat();
    const asked = keys.filter((key) => !credentialItem(key));
    return {
      command,
      items: items.filter((item) => !credentialItem(item)).length,
      asked: asked.length,
      partitions: asked.map((key) => String(key.pk)),
    };
  }
  return null;
};

/**
 * The items every call `send` makes reads: a Query's `ScannedCount` (filtered away or not), a GetItem's
 * item, a BatchGetItem's items; what authentication and grant evaluation read is left out (a call that
 * reads only that is not counted).
 */
export const itemsRead = async <T>(send: () => Promise<T>): Promise<{ result: T; reads: Read[] }> => {
  const reads: Read[] = [];
  const name = `itemsRead${Math.random()}`;
  const count =
    (next: (args: { input: Input }) => Promise<{ output: Output }>, context: { commandName?: string }) =>
    async (args: { input: Input }) => {
      // Listed in the order the calls start (calls made together end in any order).
      const slot = reads.length;
      reads.length += 1;
      const started = performance.now();
      const out = await next(args);
      const read = readOf(context.commandName ?? '', args.input, out.output);
      if (read) reads[slot] = { ...read, started, ended: performance.now() };
      return out;
    };
  dynamodb.middlewareStack.add(count as never, { step: 'initialize', name });
  try {
    const result = await send();
    return { result, reads: reads.filter(Boolean) };
  } finally {
    dynamodb.middlewareStack.remove(name);
  }
};

/**
 * The items each Query of the matching partitions read (`ScannedCount`: filtered away or not): a Query
 * matches when `partition` accepts one of its values.
 */
export const queryScans = async <T>(
  partition: (pk: string) => boolean,
  send: () => Promise<T>,
): Promise<{ result: T; scanned: number[] }> => {
  const { result, reads } = await itemsRead(send);
  return {
    result,
    scanned: reads.flatMap((r) => (r.values?.some(partition) ? [r.items] : [])),
  };
};
