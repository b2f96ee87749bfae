/**
 * The DynamoDB calls `run` makes, by command (`UpdateItemCommand`: 2), a refused conditional write
 * counted as the call it was: for tests that prove what a piece of work does not even try.
 */
import { dynamodb } from '#shared/data/clients';

export const dynamoCalls = async <T>(run: () => Promise<T>) => {
  const calls: Record<string, number> = {};
  const name = `dynamoCalls${Math.random()}`;
  const count =
    (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => (args: unknown) => {
      const command = context.commandName ?? 'unknown';
      calls[command] = (calls[command] ?? 0) + 1;
      return next(args);
    };
  dynamodb.middlewareStack.add(count as never, { step: 'initialize', name });
  try {
    return { result: await run(), calls };
  } finally {
    dynamodb.middlewareStack.remove(name);
  }
};
