/**
 * The items each Query of the matching partitions read (`ScannedCount`: filtered away or not) while
 * `send` runs, counted on the service's own client. The document client's input still holds plain values
 * at this step (it marshals later in the stack), so `:pk` is the partition as written.
 */
import { dynamodb } from '#shared/data/clients';

type Args = { input: { ExpressionAttributeValues?: Record<string, unknown> } };

export const queryScans = async <T>(
  partition: (pk: string) => boolean,
  send: () => Promise<T>,
): Promise<{ result: T; scanned: number[] }> => {
  const scanned: number[] = [];
  const name = `queryScans${Math.random()}`;
  const count =
    (
      next: (args: Args) => Promise<{ output: { ScannedCount?: number } }>,
      context: { commandName?: string },
    ) =>
    async (args: Args) => {
      const out = await next(args);
      const pk = args.input.ExpressionAttributeValues?.[':pk'];
      if (context.commandName === 'QueryCommand' && typeof pk === 'string' && partition(pk))
        scanned.push(out.output.ScannedCount ?? 0);
      return out;
    };
  dynamodb.middlewareStack.add(count as never, { step: 'initialize', name });
  try {
    return { result: await send(), scanned };
  } finally {
    dynamodb.middlewareStack.remove(name);
  }
};

/** One DynamoDB call a request made besides authenticating it, and how many items it read. */
export interface Read {
  command: string;
  items: number;
  /** A Query's partition. */
  partition?: string;
}

type Value = string | { S?: string } | undefined;
const text = (value: Value) => (typeof value === 'string' ? value : value?.S) ?? '';
/** Authentication's own items (the principal, its grants, a session), read with every request. */
const credentialItem = (item: { pk?: Value }) => /^(PRINCIPAL|SESSION)#/.test(text(item.pk));

/**
 * The items every call `send` makes reads: a Query's `ScannedCount` (filtered away or not), a GetItem's
 * item, a BatchGetItem's items; what authentication and grant evaluation read is left out (a call that
 * reads only that is not counted).
 */
export const itemsRead = async <T>(send: () => Promise<T>): Promise<{ result: T; reads: Read[] }> => {
  const reads: Read[] = [];
  const name = `itemsRead${Math.random()}`;
  type Output = { ScannedCount?: number; Item?: object; Responses?: Record<string, { pk?: Value }[]> };
  type Input = {
    RequestItems?: Record<string, { Keys?: { pk?: Value }[] }>;
    ExpressionAttributeValues?: Record<string, Value>;
  };
  const count =
    (next: (args: { input: Input }) => Promise<{ output: Output }>, context: { commandName?: string }) =>
    async (args: { input: Input }) => {
      const out = await next(args);
      const command = context.commandName ?? '';
      const { output } = out;
      if (command === 'QueryCommand') {
        const values = args.input.ExpressionAttributeValues ?? {};
        const partition = text(values[':pk'] ?? values[':p'] ?? values[':g']);
        if (!credentialItem({ pk: partition }))
          reads.push({ command, items: output.ScannedCount ?? 0, partition });
      } else if (command === 'GetItemCommand') reads.push({ command, items: output.Item ? 1 : 0 });
      else if (command === 'BatchGetItemCommand') {
        const keys = Object.values(args.input.RequestItems ?? {}).flatMap((r) => r.Keys ?? []);
        if (!keys.every(credentialItem)) {
          const items = Object.values(output.Responses ?? {}).flat();
          reads.push({ command, items: items.filter((item) => !credentialItem(item)).length });
        }
      }
      return out;
    };
  dynamodb.middlewareStack.add(count as never, { step: 'initialize', name });
  try {
    return { result: await send(), reads };
  } finally {
    dynamodb.middlewareStack.remove(name);
  }
};
