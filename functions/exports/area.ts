import { jobs } from '#functions/jobs/definitions';
import { defineArea } from '#shared/engine/area';
import { exportsDefinition } from './definitions';
import { EXPORT_JOB } from './job-kinds';

export const area = defineArea('exports', {
  tag: 'Exports',
  feature: { description: 'Exports of the organisation’s records.' },
  // Jobs are read here too: like exports, each is its creator's work product.
  jobs: [EXPORT_JOB],
  resources: [exportsDefinition, jobs],
  routes: [],
});
