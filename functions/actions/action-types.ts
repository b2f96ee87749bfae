/**
 * Action types (issue 45): an organisation's kinds of follow-up, each with its custom fields (a JSON
 * Schema of one flat object, `rules/custom-fields.ts`), the priority and due period its actions start
 * with, and, per move, who besides managers may make it and the evidence it needs; and whether completion
 * needs someone else's verification. A type stays while actions use it (counted on it by their writes).
 */

import type { StoredResource } from '#shared/data/stored-resource';
import { CRUD, defineResource } from '#shared/engine/resource-definition';
import { ValidationError } from '#shared/jsonapi/errors';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import { DUE_PERIOD, EVIDENCE_KINDS, MOVE_PARTIES, PRIORITIES } from './rules/actions';
import { FIELD_FORMATS, FIELD_NAME, FIELD_TYPES, MAX_FIELDS, schemaProblems } from './rules/custom-fields';

/** How many actions are of the type: kept on it by their writes, so a type in use is not deleted. */
export const ACTIONS_OF_TYPE = 'count#actions';

/** The moves a type may configure (its parties and evidence): the assignee's and the verification. */
export const CONFIGURABLE_MOVES = [
  'start',
  'block',
  'unblock',
  'complete',
  'request-verification',
  'verify',
  'send-back',
  'cant-do',
] as const;

const countOf = (record: StoredResource) =>
  Number((record as unknown as Record<string, unknown>)[ACTIONS_OF_TYPE] ?? 0);

export const actionTypes = defineResource({
  type: 'action-types',
  tag: 'Actions',
  names: { one: 'ActionType', many: 'ActionTypes' },
  collectionPath: '/v3/orgs/{org_id}/action-types',
  itemPath: '/v3/action-types/{action_type_id}',
  permission: 'action-types',
  endpoints: CRUD,
  writes: async () => {
    const { z, requiredLine, freeText, line, integer } = await loadSchemaBuilders();
    const field = z.strictObject({
      type: z.enum(FIELD_TYPES),
      title: line(200).optional(),
      description: freeText(1000).optional(),
      enum: z
        .array(z.union([z.string().max(200), z.number()]))
        .min(1)
        .max(100)
        .optional(),
      minimum: z.number().optional(),
      maximum: z.number().optional(),
      minLength: integer(0, 30_000).optional(),
      maxLength: integer(1, 30_000).optional(),
      format: z.enum(FIELD_FORMATS).optional(),
    });
    const move = z.strictObject({
      parties: z.array(z.enum(MOVE_PARTIES)).max(MOVE_PARTIES.length).optional(),
      evidence: z.array(z.enum(EVIDENCE_KINDS)).max(EVIDENCE_KINDS.length).optional(),
    });
    return {
      attributes: {
        name: requiredLine(200),
        description: freeText(2000).optional(),
        custom_fields: z
          .strictObject({
            type: z.literal('object'),
            properties: z
              .record(
                z.string().regex(FIELD_NAME, 'must be a field name: a-z, 0-9 and _, such as depth_mm'),
                field,
              )
              .refine((fields) => Object.keys(fields).length <= MAX_FIELDS, `at most ${MAX_FIELDS} fields`),
            required: z.array(z.string()).max(MAX_FIELDS).optional(),
            additionalProperties: z.literal(false).optional(),
          })
          .nullable()
          .optional()
          .describe(
            'A JSON Schema (2020-12) of one flat object, each property a string, number, integer or boolean field: what every action of the type carries as custom_fields.',
          ),
        default_priority: z.enum(PRIORITIES).optional(),
        due_period: z
          .string()
          .regex(DUE_PERIOD, 'must be an ISO 8601 duration of weeks, days or hours, such as P3D or PT4H')
          .nullable()
          .optional()
          .describe('How long after creation its actions are due, unless given a due_at.'),
        moves: z
          .strictObject(Object.fromEntries(CONFIGURABLE_MOVES.map((verb) => [verb, move.optional()])))
          .optional()
          .describe(
            'Per move: who besides actions:manage holders may make it (assignee: the action’s parties) and the evidence it needs.',
          ),
        verification_required: z.boolean().optional(),
      },
      prepare: (type) => {
        const problems = schemaProblems(
          type.attributes.custom_fields as never,
          '/data/attributes/custom_fields',
        );
        if (problems.length > 0)
          throw new ValidationError({
            detail: problems[0]?.detail,
            source: { pointer: problems[0]?.pointer ?? '' },
          });
        return type;
      },
      guardDelete: (type) => {
        const actions = countOf(type);
        return actions > 0
          ? `${actions} action(s) are of this type: it stays while they are (delete or move them first).`
          : undefined;
      },
    };
  },
  collection: {
    filters: {
      name: { kind: 'eq', path: 'attributes.name', index: 'sort-name' },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: { name: { path: 'attributes.name', index: 'lsi1' } },
    defaultSort: 'name',
    includes: [],
  },
  // `meta.actions`: how many actions are of the type, from its own record.
  derive: async (_scope, types) =>
    types.map((type) => ({ ...type, meta: { ...type.meta, actions: countOf(type) } })),
});
