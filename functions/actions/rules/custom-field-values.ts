/**
 * An action's custom field values against its type's schema (pure; the subset the schema is held to is
 * `custom-fields.ts`), by zod's own JSON Schema reader (`fromJSONSchema`), so no validator is written
 * here: a value refused is a 400 at its field. Loaded by actions' writes only: a read carries no zod.
 */
import * as z from 'zod';
import type { FieldProblem } from './custom-fields';

/** Escapes a member name for a JSON Pointer (RFC 6901). */
const escaped = (part: PropertyKey) => String(part).replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The values refused by the type's schema, each at its pointer under `at`; none for a type without one
 * (then only an empty object is accepted: values no schema names are refused).
 */
export const valueProblems = (
  schema: Record<string, unknown> | null | undefined,
  values: Record<string, unknown>,
  at: string,
): FieldProblem[] => {
  const validator: z.ZodType = z.fromJSONSchema({
    type: 'object',
    properties: {},
    additionalProperties: false,
    ...schema,
  } as never);
  const parsed = validator.safeParse(values);
  if (parsed.success) return [];
  return parsed.error.issues.flatMap((issue) => {
    // An unknown member is refused at itself, not at the object holding it.
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
    return keys.map((key) => ({
      pointer: `${at}${[...issue.path, ...(key === undefined ? [] : [key])].map((part) => `/${escaped(part)}`).join('')}`,
      detail: key === undefined ? issue.message : `${key} is not one of this action type's custom fields.`,
    }));
  });
};
