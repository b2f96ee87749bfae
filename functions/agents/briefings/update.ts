import { updateHandler } from '#shared/engine/crud-handlers';
import { briefings } from '#shared/resources/agents/definitions';
import { updateBriefing } from '#shared/resources/agents/writes';

export { updateBriefingDocument as requestBody } from '#shared/resources/agents/writes';

/** PATCH /v3/briefings/{briefing_id}: a generating briefing gets its result (ready) or fails; any finished one can be archived. */
export const handler = updateHandler(
  'updateBriefing',
  { definition: briefings, update: updateBriefing },
  'briefing_id',
);
