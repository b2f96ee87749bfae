/**
 * A reassignment's input and writes: the new assignee (a user, a team or a job role of the organisation,
 * or none), checked to exist in the organisation in the move's own transaction, so another organisation's
 * record, like an unknown one, is refused with nothing written.
 */
import * as z from 'zod';
import type { StoredResource } from '#shared/data/stored-resource';
import type { ResourceDefinition } from '#shared/engine/declaration';
import type { MoveWrites } from '#shared/engine/lifecycle';
import { existenceChecks, relationshipSchema } from '#shared/engine/record-writes';

/** `actions` is passed in, not imported: its declaration loads this module. */
export const reassignInput = (actions: ResourceDefinition): z.ZodType =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('actions'),
      relationships: z.strictObject({ assignee: relationshipSchema(actions, 'assignee') }),
    }),
  });

export const reassignWrites = (
  actions: ResourceDefinition,
  moved: StoredResource,
  before: StoredResource,
): MoveWrites =>
  moved.rels.assignee === before.rels.assignee
    ? {}
    : { checks: existenceChecks(actions, moved.org_id, { assignee: moved.rels.assignee ?? null }) };
