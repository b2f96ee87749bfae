/**
 * `npm start` in a throw-away copy of the repository's sources (node_modules linked, not copied), so a
 * test or the reload bench can edit the files it serves without touching the working tree. It starts
 * exactly as `npm start` does (the tsx CLI running infra/local/start.ts) in a process group of its own,
 * so `interrupt()` is what Ctrl-C in a terminal does: SIGINT to every process of the group.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../infra/local/engines';

const repository = resolve(import.meta.dirname, '../..');
const SOURCES = ['functions', 'shared', 'infra', 'package.json', 'tsconfig.json'];
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');

/** A copy of the sources in a temporary folder; `remove()` deletes it. */
export const copySources = (): { root: string; remove(): void } => {
  const root = mkdtempSync(join(tmpdir(), 'local-copy-'));
  for (const entry of SOURCES) cpSync(join(repository, entry), join(root, entry), { recursive: true });
  symlinkSync(join(repository, 'node_modules'), join(root, 'node_modules'), 'dir');
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
};

/** Runs one of the copy's scripts with tsx, as `npm run` would, to its end. */
export const runScript = (root: string, script: string, args: string[], env: Record<string, string> = {}) => {
  const { status, stdout, stderr } = spawnSync(process.execPath, [tsxCli, script, ...args], {
    cwd: root,
    env: cleanEnv(env),
    encoding: 'utf8',
  });
  return { status, stdout, stderr };
};

/** What a developer's shell has, without the test worker's configuration (its table, its issuer). */
const cleanEnv = (extra: Record<string, string> = {}) => {
  const env: Record<string, string> = { ...extra };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'JAVA_HOME', 'LANG']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
};

export interface LocalStack {
  url: string;
  /** Everything the process group has printed on stdout so far. */
  output(): string;
  /** Resolves once `pattern` has been printed `count` times in all. */
  printed(pattern: RegExp, count?: number, timeoutMs?: number): Promise<void>;
  credentials(): {
    base_url: string;
    organisations: {
      id: string;
      name: string;
      clients: { client_id: string; client_secret: string; role: string }[];
      /** The administrator user with a session, as printed. */
      user?: { id: string; email: string; session_token: string };
    }[];
  };
  /** `npm start` and every process it started, as of now. */
  processes(): { pid: number; command: string }[];
  /** Ctrl-C: SIGINT to the whole process group; resolves with the exit code once `npm start` exits. */
  interrupt(): Promise<number | null>;
}

const descendants = (root: number) => {
  const table = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => {
      const [, pid = '0', ppid = '0', command = ''] = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line) ?? [];
      return { pid: Number(pid), ppid: Number(ppid), command };
    });
  const found = table.filter((p) => p.pid === root);
  for (let i = 0; i < found.length; i++) found.push(...table.filter((p) => p.ppid === found[i]?.pid));
  return found.map(({ pid, command }) => ({ pid, command }));
};

export const startLocalStack = async (root: string): Promise<LocalStack> => {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [tsxCli, 'infra/local/start.ts'], {
    cwd: root,
    env: cleanEnv({ PORT: String(port) }),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  const printed = async (pattern: RegExp, count = 1, timeoutMs = 60_000) => {
    const global = new RegExp(pattern.source, 'g');
    const deadline = Date.now() + timeoutMs;
    while ((stdout.match(global)?.length ?? 0) < count) {
      if (child.exitCode !== null)
        throw new Error(`npm start exited (${child.exitCode}):\n${stdout}${stderr}`);
      if (Date.now() > deadline) throw new Error(`Not printed: ${pattern}\n${stdout}${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const pid = child.pid ?? 0;
  const interrupt = async () => {
    if (child.exitCode === null) process.kill(-pid, 'SIGINT');
    return exited;
  };
  try {
    await printed(/Compliance API running at/, 1, 120_000);
  } catch (error) {
    await interrupt();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => stdout,
    printed,
    credentials: () => JSON.parse(readFileSync(join(root, '.local/credentials.json'), 'utf8')),
    processes: () => descendants(pid),
    interrupt,
  };
};
