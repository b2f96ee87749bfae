import { getHandler } from '#shared/http/crud-handlers';
import { planVersions } from '#shared/resources/cdm/definitions';

/** GET /v3/construction-phase-plan-versions/{plan_version_id}: one entry of a plan’s history. */
export const handler = getHandler('getConstructionPhasePlanVersion', planVersions, 'plan_version_id');
