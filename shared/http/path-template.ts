/**
 * Path templates as API Gateway writes them (`/v3/orgs/{org_id}/assets/vehicles`): the names of their
 * parameters, as a type for handlers and as a list, and a template filled from values. Routes, links and
 * `Location` all go through here, so a URL the API emits is a path some route serves.
 */

/** The path parameters of a template, each a string: `ParamsOf<'/v3/orgs/{org_id}'>` is `{ org_id: string }`. */
export type ParamsOf<Path extends string> = string extends Path
  ? Readonly<Record<string, string>>
  : { readonly [Name in ParameterNames<Path>]: string };

type ParameterNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParameterNames<Rest>
  : never;

const PARAMETER = /\{(\w+)\}/g;

/** The names of a template's parameters, in path order. */
export const parameterNames = (template: string): string[] =>
  [...template.matchAll(PARAMETER)].map(([, name]) => name ?? '');

/** The template with each `{name}` replaced by its value, percent-encoded; a missing value is a bug. */
export const fillPath = (template: string, params: Readonly<Record<string, string>>): string =>
  template.replace(PARAMETER, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
