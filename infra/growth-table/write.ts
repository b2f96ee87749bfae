/** `npm run growth`: rewrites the growth table of shared/data/README.md from the measured sizes and the assumptions. */
import { readFileSync, writeFileSync } from 'node:fs';
import { growthTable, loadMeasured, README, withGrowthTable } from './table';

writeFileSync(README, withGrowthTable(readFileSync(README, 'utf8'), growthTable(loadMeasured())));
