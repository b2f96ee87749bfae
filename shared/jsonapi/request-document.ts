/**
 * Request documents, validated at the edge with zod. Unknown members anywhere are rejected (no mass
 * assignment), and every problem becomes its own 400 error object with a JSON Pointer to it.
 */
import * as z from 'zod';
import { ValidationError } from './errors';
import { pointer } from './pointer';

const toValidationError = (issues: readonly z.core.$ZodIssue[]): ValidationError =>
  new ValidationError({
    problems: issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map(
            (key) =>
              new ValidationError({
                detail: `${key} is not an accepted member.`,
                source: { pointer: pointer([...issue.path, key]) },
              }),
          )
        : [new ValidationError({ detail: issue.message, source: { pointer: pointer(issue.path) } })],
    ),
  });

/** Parses a request body against a schema; throws a 400 listing every problem. */
export const parseDocument = <T extends z.ZodType>(schema: T, body: unknown): z.infer<T> => {
  if (body === undefined) {
    throw new ValidationError({ detail: 'A request body is required.', source: { pointer: '' } });
  }
  const result = schema.safeParse(body);
  if (!result.success) throw toValidationError(result.error.issues);
  return result.data;
};

export const identifier = <T extends string>(type: T) =>
  z.strictObject({ type: z.literal(type), id: z.uuid() });

export const toMany = <T extends string>(type: T, max: number) =>
  z.strictObject({ data: z.array(identifier(type)).max(max) });

/** `{data: {type, attributes, relationships?}}` for a create, strict at every level. */
export const createDocument = <A extends z.ZodRawShape, R extends z.ZodRawShape>(
  type: string,
  attributes: A,
  relationships: R,
) =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal(type),
      attributes: z.strictObject(attributes),
      relationships: z.strictObject(relationships).optional(),
    }),
  });

/** A PATCH body's `data.id` must name the resource in the path. */
export const assertSameId = (bodyId: string, pathId: string): void => {
  if (bodyId !== pathId) {
    throw new ValidationError({
      detail: 'data.id must match the id in the path.',
      source: { pointer: '/data/id' },
    });
  }
};
