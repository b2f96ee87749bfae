/**
 * The floor plan's fences that biome holds (biome.json's overrides), each proven to fail: files that
 * break a fence, and files that keep to it, are written at their places in a scratch copy of the layout
 * with the project's biome.json, and biome lints them there. Pure rules (`shared/domain`, an area's
 * `rules/`) import no I/O, no engine or data layer and none of an area's other code; no area code imports
 * an AWS SDK. (The import rules biome cannot express are `import-rules.test.ts`.)
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY } from '../support/import-graph';

/** Each scratch file's source: one import a line, so a diagnostic's line names the import. */
const FILES: Record<string, string[]> = {
  'functions/qualifications/rules/breaks.ts': [
    "import { awardsCrud } from '../definitions';",
    "import { scopeOf } from '#shared/data/scope';",
    "import { defineArea } from '#shared/engine/area';",
    "import { users } from '#functions/people/users';",
    "import { readFileSync } from 'node:fs';",
    "import { S3Client } from '@aws-sdk/client-s3';",
  ],
  'functions/qualifications/rules/keeps.ts': [
    "import { invitationState } from '#functions/people/rules/invitation';",
    "import { foldText } from '#shared/domain/text';",
    "import { isExpired } from './awards';",
    "import * as z from 'zod';",
  ],
  'shared/domain/breaks.ts': [
    "import { routes } from '#shared/routes';",
    "import { commit } from '../data/transaction';",
  ],
  'functions/costs/breaks.ts': ["import { DynamoDBClient } from '@aws-sdk/client-dynamodb';"],
  'functions/costs/keeps.ts': [
    "import { commit } from '#shared/data/transaction';",
    "import { users } from '#functions/people/users';",
  ],
};

interface Diagnostic {
  category: string;
  message: string;
  location: { path: string; start: { line: number } };
}

let scratch: string;
let refused: string[];

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'lint-fences-'));
  copyFileSync(join(REPOSITORY, 'biome.json'), join(scratch, 'biome.json'));
  for (const [path, lines] of Object.entries(FILES)) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), `${lines.join('\n')}\n`);
  }
  const biome = join(REPOSITORY, 'node_modules/.bin/biome');
  let output: string;
  try {
    output = execFileSync(biome, ['lint', '--reporter=json', '--vcs-enabled=false', 'functions', 'shared'], {
      cwd: scratch,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (error) {
    output = (error as { stdout: string }).stdout;
  }
  const { diagnostics } = JSON.parse(output) as { diagnostics: Diagnostic[] };
  refused = diagnostics
    .filter((d) => d.category === 'lint/style/noRestrictedImports')
    .map((d) => `${d.location.path}:${d.location.start.line}`)
    .sort();
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('biome holds the fences of the floor plan', () => {
  it("an area's rules/ refuse its own area code, the data and engine layers, another area's code, I/O and SDKs", () => {
    expect(refused.filter((at) => at.startsWith('functions/qualifications/rules/'))).toEqual(
      [1, 2, 3, 4, 5, 6].map((line) => `functions/qualifications/rules/breaks.ts:${line}`),
    );
  });

  it("an area's rules/ may import another area's rules, shared/domain, their own folder and pure packages", () => {
    expect(refused.filter((at) => at.includes('keeps.ts'))).toEqual([]);
  });

  it('shared/domain refuses the composition root and the data layer', () => {
    expect(refused.filter((at) => at.startsWith('shared/domain/'))).toEqual([
      'shared/domain/breaks.ts:1',
      'shared/domain/breaks.ts:2',
    ]);
  });

  it('area code refuses an AWS SDK (only shared/data talks to AWS) but may use the data layer', () => {
    expect(refused.filter((at) => at.startsWith('functions/costs/'))).toEqual([
      'functions/costs/breaks.ts:1',
    ]);
  });
});
