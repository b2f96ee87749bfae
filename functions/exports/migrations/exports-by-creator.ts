/**
 * Exports made before they were filed by creator (cccf9be) are on no creator's index and in no day's
 * count: the creator's list (`GET /v3/orgs/{org_id}/exports`) neither showed nor counted them. Each is
 * filed and counted as an export made on its day is today, its TTL the end of that day plus 30 days.
 */
import { keptByCreatorStep } from '#shared/engine/kept-by-creator-step';
import { exportsDefinition, keptExports } from '../definitions';

export const exportsByCreator = keptByCreatorStep(exportsDefinition, keptExports);
