/**
 * `npm run migrate`: runs every migration the areas declare above the local table's schema version
 * (`functions/migrations/run.ts`), against the DynamoDB Local and table the running `npm start` uses (it
 * writes both to `.local/credentials.json`, and runs the migrations itself when it makes the table).
 * Prints what each migration read and changed; exits 2 with one line when there is nothing to run on.
 */
import { Refusal, readCredentials, runScriptMain } from './demo-credentials';

runScriptMain('migrate', async () => {
  const { dynamodb_endpoint: endpoint, table_name: table } = readCredentials();
  if (!endpoint || !table)
    throw new Refusal('.local/credentials.json names no DynamoDB Local: restart npm start.');
  // Configuration is read when the first module that needs it loads: set it before importing the runner.
  Object.assign(process.env, { STAGE: 'local', DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: table });
  const { migrate } = await import('../../functions/migrations/run');
  const run = await migrate().catch((error: unknown) => {
    const code = (error as { cause?: { code?: string }; code?: string }).code;
    throw code === 'ECONNREFUSED' ? new Refusal(`Nothing is listening at ${endpoint}: npm start.`) : error;
  });
  const lines = run.ran.map(
    (m) =>
      `  ${m.version} ${m.name}: read ${m.read} items, changed ${m.changed} records${m.finished ? '' : ' (unfinished)'}`,
  );
  process.stdout.write(
    `${[`Schema version ${run.from} → ${run.to}${run.ran.length === 0 ? ' (nothing to migrate)' : ''}`, ...lines].join('\n')}\n`,
  );
});
