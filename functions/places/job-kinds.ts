/** The places area's jobs: a location import too large for its request (`import-job.ts`). */
import { jobKind } from '#shared/engine/job-kinds';

export const IMPORT_JOB = jobKind('location-import', {
  module: 'functions/places/import-job.ts',
  kind: 'locationImportJob',
});
