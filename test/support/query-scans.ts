/**
 * The items each Query of the matching partitions read (`ScannedCount`: filtered away or not) while
 * `send` runs, counted on the service's own client: a Query matches when `partition` accepts one of its
 * values (its key, as written: the document client's input still holds plain values at this step, as it
 * marshals later in the stack).
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
      const values = Object.values(args.input.ExpressionAttributeValues ?? {});
      if (context.commandName === 'QueryCommand' && values.some((v) => typeof v === 'string' && partition(v)))
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
