/** `npm run keys`: rewrites the key table of shared/data/README.md from the declared access patterns. */
import { readFileSync, writeFileSync } from 'node:fs';
import { keyTable, loadPatterns, README, withKeyTable } from './table';

writeFileSync(README, withKeyTable(readFileSync(README, 'utf8'), keyTable(await loadPatterns())));
