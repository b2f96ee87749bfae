/**
 * Query parameters a handler parses by rules of its own (a feed's cursor, an evaluation's people), each
 * declared once beside its parser: the parser refuses a request without a required one, and the OpenAPI
 * document describes each from the same declaration, so what one requires the other says is required.
 */
import type { QueryParameters } from './collection-query';
import { ValidationError } from './errors';

/** The values a parameter takes, where fewer than any string: the document's schema of it. */
export interface ParameterSchema {
  type: 'string' | 'integer';
  enum?: readonly string[];
  format?: 'uuid' | 'date';
  minimum?: number;
  maximum?: number;
  default?: string | number;
}

export interface OwnQueryParameter {
  /** What it means and its syntax. */
  description: string;
  /** The handler cannot answer without it: absent (or empty) is a 400 naming it. */
  required?: true;
  schema?: ParameterSchema;
}

export type OwnQueryParameters = Readonly<Record<string, OwnQueryParameter>>;

/** A 400 naming the first required parameter the query lacks; an empty value counts as none. */
export const requireOwnParameters = (query: QueryParameters, declared: OwnQueryParameters): void => {
  for (const [name, { required, description }] of Object.entries(declared)) {
    if (required && !query[name]?.trim())
      throw new ValidationError({
        detail: `${name} is required. ${description}`,
        source: { parameter: name },
      });
  }
};
