import { getHandler } from '#shared/http/crud-handlers';
import { briefings } from '#shared/resources/agents/definitions';

/** GET /v3/briefings/{briefing_id} */
export const handler = getHandler('getBriefing', briefings, 'briefing_id');
