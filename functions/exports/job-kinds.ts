/** The exports area's jobs: an export's file, written part by part (`export-job.ts`). */
import { jobKind } from '#shared/engine/job-kinds';

export const EXPORT_JOB = jobKind('export', { module: 'functions/exports/export-job.ts', kind: 'exportJob' });
