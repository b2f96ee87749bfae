import { jobs } from '#functions/jobs/definitions';
import { defineArea } from '#shared/engine/area';
import { migration } from '#shared/engine/migration-declarations';
import { exportsDefinition } from './definitions';
import { EXPORT_JOB } from './job-kinds';

export const area = defineArea('exports', {
  tag: 'Exports',
  feature: { description: 'Exports of the organisation’s records.' },
  // Jobs are read here too: like exports, each is its creator's work product.
  jobs: [EXPORT_JOB],
  resources: [exportsDefinition, jobs],
  migrations: [
    migration(9, 'exports-by-creator', {
      module: 'functions/exports/migrations/exports-by-creator.ts',
      step: 'exportsByCreator',
    }),
  ],
  routes: [],
});
