/**
 * `npm run scenario:cdm`: the CDM walk-through against a running `npm start`, as the first demo
 * organisation's admin client from `.local/credentials.json`. It prints each step and the ids it made.
 */
import { runCdmScenario } from './cdm';
import { credentials, firstOrganisationAdmin, http } from './local';

const { org, adminToken } = await firstOrganisationAdmin();
process.stdout.write(`CDM walk-through in ${org.name} (${org.id}) at ${credentials.base_url}\n`);
const result = await runCdmScenario(http, org.id, adminToken, (line) =>
  process.stdout.write(`  ✓ ${line}\n`),
);
process.stdout.write(
  `Done. Scheme ${result.schemeId}, pre-construction information ${result.packId}, plan ${result.planId}.\n` +
    `  GET ${credentials.base_url}/v3/construction-phase-plans/${result.planId}/versions\n`,
);
