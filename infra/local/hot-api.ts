/**
 * Hot reload for `npm start`. This process holds the public port and forwards each connection, as bytes
 * (nothing is parsed, so the adapter answers exactly as it does alone), to the API adapter running in a
 * child process (`api-process.ts`). When a TypeScript file under functions/, shared/ or infra/ changes,
 * the child is replaced by a fresh one: every module loads anew, as in a Lambda cold start, while the
 * engines and their data, which belong to the calling process, stay up. Connections that arrive between
 * the save and the new child's readiness wait for it, so a request made after a save is answered by the
 * saved code.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { watch } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BadGatewayError, rawGatewayAnswer } from './gateway-answers';

/** The folders whose sources the adapter loads: handlers, declarations, shared modules, the adapter. */
const WATCHED = ['functions', 'shared', 'infra'];
/** Editors write a file in more than one step (truncate, write): wait for the last one. */
const SETTLE_MS = 25;
/**
 * How long after a (re)start the spare child starts loading: its second of work would otherwise share
 * the CPU with the first requests, which load their handlers (measured: 0.27 s to the first answer
 * after a save with the spare ready and idle, 0.5 to 0.8 s when it starts at once, 1.4 s with no spare).
 */
const SPARE_DELAY_MS = 1000;

/** As API Gateway answers for a function that cannot start, with what to do about it. */
const notStarted = () =>
  rawGatewayAnswer(
    new BadGatewayError(
      'The local API did not start after the last change: see the npm start terminal, fix and save.',
    ),
  );

export interface HotApiOptions {
  /** The repository whose `infra/local/api-process.ts` runs and whose sources are watched. */
  root: string;
  port: number;
  host: string;
  /** Configuration for the adapter process (endpoints, table, buckets, issuer). */
  env: Record<string, string>;
  log: (line: string) => void;
}

interface Adapter {
  child: ChildProcess;
  /** The adapter's own port, once it listens; rejected if it exits first. */
  port: Promise<number>;
}

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

const alive = (child?: ChildProcess): child is ChildProcess =>
  child !== undefined && child.exitCode === null && child.signalCode === null;

const halt = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (!alive(child)) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });

const listed = (reasons: Iterable<string>) => {
  const all = [...reasons];
  return all.slice(0, 3).join(', ') + (all.length > 3 ? ` and ${all.length - 3} more` : '');
};

export const startHotApi = async ({ root, port, host, env, log }: HotApiOptions) => {
  let stopped = false;
  const children = new Set<ChildProcess>();
  const spawnChild = () => {
    const child = fork(resolve(root, 'infra/local/api-process.ts'), [], {
      cwd: root,
      env: { ...process.env, ...env },
      execArgv: ['--import', tsx],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.add(child);
    child.once('exit', () => children.delete(child));
    return child;
  };

  // The next child, started ahead of time: it loads the slow packages before any change (api-process.ts).
  let spare: ChildProcess | undefined;
  let spareTimer: NodeJS.Timeout | undefined;
  const prepareSpare = () => {
    clearTimeout(spareTimer);
    spareTimer = setTimeout(() => {
      if (!stopped && !alive(spare)) spare = spawnChild();
    }, SPARE_DELAY_MS);
  };

  // A burst of changes (a save, a checkout) is one reload; connections wait from its first event.
  const changed = new Set<string>();
  let since = 0;
  let settling: NodeJS.Timeout | undefined;
  let settled: Promise<void> = Promise.resolve();
  let settle: (() => void) | undefined;

  let current: Adapter;
  const launch = (reason?: string) => {
    const child = alive(spare) ? spare : spawnChild();
    spare = undefined;
    let listening = false;
    const adapter: Adapter = {
      child,
      port: new Promise<number>((done, fail) => {
        child.once('message', (message: { port: number }) => {
          listening = true;
          done(message.port);
        });
        child.once('exit', (code, signal) => {
          const why = `the API process exited (${signal ?? `code ${code}`})`;
          fail(new Error(why));
          // One that dies on its own while serving (an error outside any request) is replaced.
          if (listening && adapter === current && !stopped) onChange(why);
        });
      }),
    };
    current = adapter;
    child.send('go');
    adapter.port.then(
      () => {
        if (adapter !== current) return;
        if (reason) log(`API reloaded in ${Math.round(performance.now() - since)} ms: ${reason}`);
        prepareSpare();
      },
      (error: Error) => {
        if (adapter !== current || stopped) return;
        log(`API did not start (${error.message}): fix and save`);
        prepareSpare();
      },
    );
  };

  const reload = () => {
    const previous = current;
    launch(listed(changed));
    changed.clear();
    void halt(previous.child);
    settle?.();
    settle = undefined;
  };
  /** `why`: what changed, for the log line. */
  const onChange = (why: string) => {
    if (stopped) return;
    if (!settle) {
      since = performance.now();
      settled = new Promise((done) => {
        settle = done;
      });
      clearTimeout(spareTimer);
    }
    changed.add(why);
    clearTimeout(settling);
    settling = setTimeout(reload, SETTLE_MS);
  };

  /** The port of the adapter serving the latest sources, once it listens. */
  const adapterPort = async (): Promise<number> => {
    for (;;) {
      await settled;
      const adapter = current;
      try {
        const adapterPort = await adapter.port;
        if (adapter === current) return adapterPort;
      } catch (error) {
        // Replaced while it started (a newer change): wait for its successor instead.
        if (adapter === current) throw error;
      }
    }
  };

  const sockets = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    adapterPort().then(
      (adapterPort) => {
        const upstream = connect({ port: adapterPort, host: '127.0.0.1', allowHalfOpen: true });
        upstream.on('error', () => client.destroy());
        client.once('close', () => upstream.destroy());
        client.pipe(upstream).pipe(client);
      },
      () => client.once('data', () => client.end(notStarted())),
    );
  });
  const watchers = WATCHED.map((folder) =>
    watch(resolve(root, folder), { recursive: true }, (_event, name) => {
      if (name?.endsWith('.ts')) onChange(`${folder}/${name} changed`);
    }),
  );
  const stop = async () => {
    stopped = true;
    clearTimeout(settling);
    clearTimeout(spareTimer);
    for (const watcher of watchers) watcher.close();
    const closed = new Promise<void>((done) => server.close(() => done()));
    for (const socket of sockets) socket.destroy();
    await Promise.all([...children].map(halt));
    await closed;
  };

  launch();
  try {
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(port, host, done);
    });
    await adapterPort();
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
};
