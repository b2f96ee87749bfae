/**
 * The local API adapter in a process of its own, so `npm start` can replace it with a fresh one when a
 * source file changes while DynamoDB Local, s3rver and their data stay up in the parent (`hot-api.ts`).
 * The parent starts each one ahead of time as a spare: it loads the slow packages, then waits for the
 * word to load the project's modules and listen on a free loopback port, which it reports back.
 * Configuration comes in the environment, set by the parent.
 */

/**
 * The packages nearly every route loads, which take about 0.6 s together: loaded before any change,
 * they cost a reload nothing. They come from node_modules, which no save changes; a package missing
 * here is loaded on first use, as every other.
 */
const PACKAGES = [
  '@aws-sdk/client-dynamodb',
  '@aws-sdk/lib-dynamodb',
  '@aws-sdk/client-s3',
  '@middy/core',
  'aws-jwt-verify',
  'zod',
  'zod/mini',
];

// Ctrl-C in a terminal reaches the whole process group: the parent decides when this process stops.
process.on('SIGINT', () => undefined);
// The parent gone (even killed outright), nothing may keep serving: the IPC channel closing says so.
process.on('disconnect', () => process.exit(0));

const warm = Promise.all(PACKAGES.map((name) => import(name).catch(() => undefined)));

const start = async () => {
  await warm;
  const { startLocalApi } = await import('./http-adapter');
  const { server } = await startLocalApi(0);
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
};

// A module that fails to load (a syntax error, a throwing import) is shown where it is, and the parent
// keeps the engines up until the next save.
process.once('message', () =>
  start().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  }),
);
