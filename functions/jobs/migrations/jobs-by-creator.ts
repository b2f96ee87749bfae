/**
 * Jobs requested before they were filed by creator (d15605a) are on no creator's index and in no day's
 * count: the creator's list (`GET /v3/orgs/{org_id}/jobs`) neither showed nor counted them. Each is filed
 * and counted as a job requested on its day is today; a finished one's TTL becomes the end of that day
 * plus 30 days, as the worker writes it now.
 */
import { keptByCreatorStep } from '#shared/engine/kept-by-creator-step';
import { jobs, keptJobs } from '../definitions';

export const jobsByCreator = keptByCreatorStep(jobs, keptJobs);
