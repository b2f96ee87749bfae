/**
 * One local invocation of a worker function (`lambda-endpoint.ts`): the bundle given, its handler called
 * with the event read from stdin, as Lambda calls it; the exit code says whether it succeeded.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [entry] = process.argv.slice(2);
let input = '';
for await (const chunk of process.stdin) input += chunk;
const module = (await import(pathToFileURL(resolve(process.cwd(), entry ?? '')).href)) as {
  handler: (event: unknown) => Promise<unknown>;
};
try {
  await module.handler(JSON.parse(input || '{}'));
  process.exit(0);
} catch (error) {
  process.stderr.write(
    `${entry}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}
