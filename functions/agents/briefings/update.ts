import { updateHandler } from '#shared/engine/crud-handlers';
import { briefings } from '../definitions';
import { updateBriefing } from '../writes';

export { updateBriefingDocument as requestBody } from '../writes';

/** PATCH /v3/briefings/{briefing_id}: a generating briefing gets its result (ready) or fails; any finished one can be archived. */
export const handler = updateHandler(
  'updateBriefing',
  { definition: briefings, update: updateBriefing },
  'briefing_id',
);
