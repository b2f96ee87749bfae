/**
 * The JSON lines the service writes (logs, and metrics in the embedded metric format) while `send` runs:
 * stdout and stderr captured, each line parsed. Handlers run in the test's process.
 */
import { vi } from 'vitest';

export const writtenWhile = async <T>(
  send: () => Promise<T>,
): Promise<{ result: T; lines: Record<string, unknown>[] }> => {
  const lines: Record<string, unknown>[] = [];
  const capture = (chunk: unknown) => {
    for (const line of String(chunk).split('\n'))
      if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    return { result: await send(), lines };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
};

/** The metric lines among them (`_aws`: the embedded metric format). */
export const metricLines = (lines: Record<string, unknown>[]) => lines.filter((l) => l._aws);
