/**
 * Locally, what Lambda does for the stack's worker functions: a loopback endpoint that speaks Lambda's
 * Invoke API (`POST /2015-03-31/functions/{name}/invocations`, `X-Amz-Invocation-Type: Event`) for the
 * SDK client in `shared/data/lambda.ts`, and runs each invocation of the named function in a child
 * process of its own, as Lambda runs it in an execution environment: one that dies (or is killed, as the
 * jobs test does mid-chunk) takes nothing else with it. Each function is bundled once, at start, as the
 * stack bundles it (its entry generated from the manifests, `infra/worker-bundles.ts`): an invocation
 * starts in about 0.3 s of CPU, not the 1.3 s of compiling the TypeScript afresh, which matters when a
 * job hands itself on every few seconds.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleEntry } from '../node-bundle';
import { REPOSITORY_ROOT } from '../repository';

/** The worker functions the stack deploys, by the name the configuration gives them, and their builds. */
// Built in a process of its own: the worker's entry is generated from the composition root, which
// `npm start` must not load before it has set the local engines' environment.
export const LOCAL_FUNCTIONS: Record<string, (outdir: string) => unknown> = {
  'job-worker': (outdir) =>
    execFileSync(process.execPath, ['--import', 'tsx', 'infra/local/build-job-worker.ts', outdir], {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, NODE_NO_WARNINGS: '1' },
      stdio: 'inherit',
    }),
};

const INVOKE = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

export interface LambdaEndpointOptions {
  /** The environment the functions run with (the stack's configuration, here local). */
  env: Record<string, string | undefined>;
  port?: number;
  log?: (line: string) => void;
}

export const startLambdaEndpoint = async ({ env, port = 0, log = () => {} }: LambdaEndpointOptions) => {
  const built = mkdtempSync(join(tmpdir(), 'local-functions-'));
  const bundle = async (name: string, build: (outdir: string) => unknown) => {
    await build(join(built, name));
    return join(built, name, 'index.mjs');
  };
  const runner = await bundle('run-function', (outdir) => bundleEntry('infra/local/run-function.ts', outdir));
  const bundles = new Map(
    await Promise.all(
      Object.entries(LOCAL_FUNCTIONS).map(
        async ([name, build]) => [name, await bundle(name, build)] as const,
      ),
    ),
  );
  const running = new Set<ChildProcess>();
  let invocations = 0;
  const run = (name: string, bundled: string, payload: string) => {
    invocations++;
    const child = spawn(process.execPath, [runner, bundled], {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'inherit', 'inherit'],
    });
    running.add(child);
    child.once('exit', (code, signal) => {
      running.delete(child);
      if (code !== 0) log(`${name}: invocation ended with ${signal ?? `exit code ${code}`}`);
    });
    child.stdin?.end(payload);
  };
  const server = createServer((req, res) => {
    const name = decodeURIComponent(INVOKE.exec(req.url ?? '')?.[1] ?? '');
    const bundled = bundles.get(name);
    if (req.method !== 'POST' || !bundled) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ Type: 'User', message: `Function not found: ${name}` }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.headers['x-amz-invocation-type'] !== 'Event') {
        res.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            Type: 'User',
            message: 'Only Event (asynchronous) invocations are served here',
          }),
        );
        return;
      }
      run(name, bundled, Buffer.concat(chunks).toString('utf8'));
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    /** The invocations still running (a test kills one mid-job). */
    running: () => [...running],
    /** The invocations started so far (the bench reports how many a job took). */
    invocations: () => invocations,
    stop: async () => {
      for (const child of running) child.kill('SIGKILL');
      await new Promise((done) => server.close(done));
      rmSync(built, { recursive: true, force: true });
    },
  };
};
