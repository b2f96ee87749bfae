/**
 * One rule for every string a request carries, checked once at the edge for every route, before anything
 * stores, signs or logs it: path parameters, query parameter names and values, header values, cookies,
 * and every member name and string value of a JSON:API body.
 *
 * - Well-formed Unicode only: a lone UTF-16 surrogate (JSON's `"\ud800"`) has no UTF-8 form, so
 *   DynamoDB, S3 and `encodeURIComponent` fail on it.
 * - No NUL anywhere: it ends strings in C libraries, S3 keys and log lines.
 * - No other control character where a value travels in a URL or a header (tab only in headers); body
 *   text may hold line breaks, and the schema types of single-line attributes refuse the rest.
 * - Body numbers are exact: beyond ±(2^53 − 1) a JSON number loses digits (RFC 8259 §6).
 * - Bodies nest at most 32 levels (what DynamoDB stores). (A member named `__proto__`, which JSON makes
 *   a member and JavaScript a prototype, is refused earlier, by middy's body parser.)
 *
 * Form and text bodies (the token endpoint, the SNS receiver) are parsed, and refused, in their own formats.
 * Two middlewares: what authentication reads is checked before it, the rest once the caller is charged.
 */

import { hasControlCharacter } from '../../domain/text';
import { type ErrorSource, ValidationError } from '../../jsonapi/errors';
import { pointer } from '../../jsonapi/pointer';
import type { ApiMiddleware } from '../api-context';
import type { Route } from '../route';

export const BODY_DEPTH_MAX = 32;
/** Enough to show a client what is wrong, not a document per bad string. */
const PROBLEMS_MAX = 20;

type ControlRule = 'nul' | 'url' | 'header';

/** Header values may hold tab and obs-text (bytes 0x80–0xFF, read as Latin-1), not C0 or DEL. */
const headerControl = (text: string) => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return true;
  }
  return false;
};

const textProblem = (text: string, rule: ControlRule): string | null => {
  if (!text.isWellFormed()) return 'is not well-formed Unicode (a lone UTF-16 surrogate).';
  if (text.includes('\0')) return 'contains a NUL character.';
  if (rule === 'url' ? hasControlCharacter(text) : rule === 'header' && headerControl(text))
    return 'contains a control character.';
  return null;
};

class Problems {
  readonly found: ValidationError[] = [];
  add(source: ErrorSource, what: string, detail: string) {
    if (this.found.length < PROBLEMS_MAX)
      this.found.push(new ValidationError({ detail: `${what} ${detail}`, source }));
  }
  text(source: ErrorSource, what: string, text: string, rule: ControlRule) {
    const problem = textProblem(text, rule);
    if (problem) this.add(source, what, problem);
  }
  get full() {
    return this.found.length >= PROBLEMS_MAX;
  }
}

/** Walks a parsed JSON body without recursion (a 1 MiB body can nest a million levels deep). */
const checkBody = (body: unknown, problems: Problems) => {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: body, path: [] }];
  while (stack.length > 0 && !problems.full) {
    const { value, path } = stack.pop() as (typeof stack)[number];
    const at = { pointer: pointer(path) };
    if (typeof value === 'string') problems.text(at, 'This value', value, 'nul');
    else if (typeof value === 'number') {
      if (Math.abs(value) > Number.MAX_SAFE_INTEGER)
        problems.add(
          at,
          'This number',
          `lies beyond ±${Number.MAX_SAFE_INTEGER}, where JSON numbers lose digits.`,
        );
    } else if (value !== null && typeof value === 'object') {
      if (path.length >= BODY_DEPTH_MAX) {
        problems.add(at, 'This member', `nests deeper than ${BODY_DEPTH_MAX} levels.`);
        continue;
      }
      const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
      for (const [name, member] of entries) {
        const memberPath = [...path, name];
        if (typeof name === 'string') {
          problems.text({ pointer: pointer(memberPath) }, 'This member name', name, 'nul');
        }
        stack.push({ value: member, path: memberPath });
      }
    }
  }
};

/**
 * What authentication reads, checked before it reads it: path parameters (they name the records read with
 * the credentials), header values and cookies. A refusal here comes before the caller is known, so, like a
 * 401, it is charged to no budget.
 */
export const wellFormedPathAndHeaders = (): ApiMiddleware => ({
  before: ({ event }) => {
    const problems = new Problems();
    for (const [name, value] of Object.entries(event.pathParameters ?? {}))
      problems.text({ parameter: name }, `Path parameter ${name}`, value ?? '', 'url');
    for (const [name, value] of Object.entries(event.headers ?? {}))
      problems.text({ header: name }, `Header ${name}`, value ?? '', 'header');
    for (const cookie of event.cookies ?? [])
      problems.text({ header: 'Cookie' }, 'A cookie', cookie, 'header');
    if (problems.found.length > 0) throw new ValidationError({ problems: problems.found });
  },
});

/** The rest of the request, once the caller is known and charged: query parameters and the body. */
export const wellFormedInput = (route: Route): ApiMiddleware => ({
  before: ({ event }) => {
    const problems = new Problems();
    for (const [name, value] of new URLSearchParams(event.rawQueryString ?? '')) {
      problems.text({ parameter: name }, 'This query parameter name', name, 'url');
      problems.text({ parameter: name }, 'This query parameter', value, 'url');
    }
    // JSON:API bodies are parsed by now (json-body.ts runs first).
    if (route.bodyType === undefined && event.body !== undefined) checkBody(event.body, problems);
    if (problems.found.length > 0) throw new ValidationError({ problems: problems.found });
  },
});
