/**
 * An action type's custom fields (pure): a JSON Schema of one flat object, the subset a form can show
 * (each field a string, number, integer or boolean, with a title, a list of choices and bounds), checked
 * against that subset on every write of the type (a 400 at the part that is wrong). It becomes a form of
 * the forms area once that exists. An action's values are checked by `custom-field-values.ts`.
 */

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
