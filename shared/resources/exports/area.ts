import { defineArea } from '../area';
import { jobs } from '../jobs/definitions';
import { JOB_RESTART } from '../jobs/due-work';
import { exportsDefinition } from './definitions';

export const area = defineArea('exports', {
  tag: 'Exports',
  // Jobs are read here too: like exports, each is its creator's work product.
  resources: [exportsDefinition, jobs],
  dueWork: [JOB_RESTART],
  routes: [],
});
