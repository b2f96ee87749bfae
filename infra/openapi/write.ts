/**
 * `npm run openapi [dir]`: writes the OpenAPI document as `openapi.json` and `openapi.yaml` into `dir`
 * (the repository's docs/ by default, so a change to the API shows in review as a change to them). The
 * specifications function's bundle is built with the same files, written fresh at synth time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPOSITORY_ROOT } from '../repository';
import { specificationFiles } from './files';

const directory = resolve(process.argv[2] ?? resolve(REPOSITORY_ROOT, 'docs'));
mkdirSync(directory, { recursive: true });
for (const [name, content] of Object.entries(await specificationFiles())) {
  writeFileSync(resolve(directory, name), content);
}
