import { JOB_RESTART, jobs } from '#functions/jobs/definitions';
import { defineArea } from '#shared/engine/area';
import { exportsDefinition } from './definitions';

export const area = defineArea('exports', {
  tag: 'Exports',
  examples: 'functions/exports/examples.ts',
  // Jobs are read here too: like exports, each is its creator's work product.
  resources: [exportsDefinition, jobs],
  dueWork: [JOB_RESTART],
  routes: [],
});
