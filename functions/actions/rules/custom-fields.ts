/**
 * An action type's custom fields (pure): a JSON Schema of one flat object, the subset a form can show
 * (each field a string, number, integer or boolean, with a title, a list of choices and bounds). The
 * schema is checked against that subset on every write of the type (a 400 at the part that is wrong), and
 * an action's values against the schema on every write of the action, by zod's own JSON Schema reader
 * (`fromJSONSchema`), so no validator is written here: a value refused is a 400 at its field. It becomes a
 * form of the forms area once that exists.
 */
import * as z from 'zod';

/** A field's name: what the values' object is keyed by, and where a refusal points. */
export const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;
export const MAX_FIELDS = 50;
export const FIELD_TYPES = ['string', 'number', 'integer', 'boolean'] as const;
export const FIELD_FORMATS = ['date', 'date-time', 'email', 'uri'] as const;

/** A refusal at a pointer under the request document. */
export interface FieldProblem {
  pointer: string;
  detail: string;
}

type Schema = { properties?: Record<string, unknown>; required?: readonly string[] };

/** What the subset's zod schema cannot say: each required field is one of the properties. */
export const schemaProblems = (schema: Schema | null | undefined, at: string): FieldProblem[] =>
  (schema?.required ?? []).flatMap((name, i) =>
    schema?.properties?.[name] === undefined
      ? [{ pointer: `${at}/required/${i}`, detail: `${name} is required but is not one of the properties.` }]
      : [],
  );

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
