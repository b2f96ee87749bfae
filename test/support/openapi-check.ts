/**
 * Issue 17: every response an API test sees is checked against the OpenAPI document (docs/openapi.json,
 * which test/api/specifications.test.ts proves equal to what the code generates and to what the stack
 * serves): its status must be one the operation documents, and its body must validate against that
 * response's schema. Each request body is checked against the operation's request schema: a body the
 * document refuses must not be accepted (2xx), so the document is never looser than the code says.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { matchRoute } from '#shared/routes';

interface Operation {
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
}

const DOCUMENT = 'openapi';
const document = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../docs/openapi.json'), 'utf8'),
) as { paths: Record<string, Record<string, Operation>>; components: { responses: Record<string, unknown> } };

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
ajv.addSchema(document, DOCUMENT);

/** `a/b~c` → `a~1b~0c` (RFC 6901). */
const escapeSegment = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

const validatorAt = (pointer: string[]) => {
  const validate = ajv.getSchema(`${DOCUMENT}#/${pointer.map(escapeSegment).join('/')}`);
  if (!validate) throw new Error(`no schema at ${pointer.join('/')}`);
  return validate;
};

/** The media type without parameters, as the document keys its content. */
const mediaOf = (contentType: string | null) => (contentType ?? '').split(';')[0]?.trim() ?? '';

const errorsOf = (validate: ReturnType<typeof validatorAt>) =>
  ajv.errorsText(validate.errors, { separator: '\n', dataVar: 'body' });

export interface Exchange {
  method: string;
  path: string;
  requestType: string | undefined;
  requestBody: string | undefined;
  status: number;
  contentType: string | null;
  text: string;
}

export const checkAgainstDocument = (exchange: Exchange): void => {
  const { match } = matchRoute(exchange.method as never, exchange.path);
  // Paths and methods no route serves answer from the fallback (404, 405), which no operation documents.
  if (!match) return;
  const { route } = match;
  const operation = document.paths[route.path]?.[route.method.toLowerCase()];
  const label = `${exchange.method} ${exchange.path} (${route.id})`;
  if (!operation) throw expect.fail(`${label} has no operation in docs/openapi.json`);
  const documented = operation.responses[String(exchange.status)];
  if (!documented)
    throw expect.fail(
      `${label} answered ${exchange.status}, which its operation does not document: ${exchange.text.slice(0, 500)}`,
    );
  const base = documented.$ref
    ? ['components', 'responses', documented.$ref.split('/').at(-1) ?? '']
    : ['paths', route.path, route.method.toLowerCase(), 'responses', String(exchange.status)];
  const response = (documented.$ref ? document.components.responses[base.at(-1) ?? ''] : documented) as {
    content?: Record<string, unknown>;
  };
  const media = mediaOf(exchange.contentType);
  if (!response.content) {
    expect(exchange.text, `${label} documents no body for ${exchange.status}`).toBe('');
  } else {
    expect(Object.keys(response.content), `${label} answered ${media} for ${exchange.status}`).toContain(
      media,
    );
    const validate = validatorAt([...base, 'content', media, 'schema']);
    const body = media.endsWith('json') ? JSON.parse(exchange.text) : exchange.text;
    if (!validate(body))
      expect.fail(
        `${label} answered ${exchange.status} against its documented schema:\n${errorsOf(validate)}\n${exchange.text.slice(0, 1500)}`,
      );
  }
  const requestMedia = mediaOf(exchange.requestType ?? null);
  const accepted = exchange.status >= 200 && exchange.status < 300;
  if (!operation.requestBody || exchange.requestBody === undefined || !accepted) return;
  const schema = [
    'paths',
    route.path,
    route.method.toLowerCase(),
    'requestBody',
    'content',
    requestMedia,
    'schema',
  ];
  if (!operation.requestBody.content[requestMedia])
    throw expect.fail(`${label} accepted ${requestMedia}, which it does not document`);
  const validate = validatorAt(schema);
  const body = requestMedia.endsWith('json')
    ? JSON.parse(exchange.requestBody)
    : requestMedia === 'application/x-www-form-urlencoded'
      ? Object.fromEntries(new URLSearchParams(exchange.requestBody))
      : exchange.requestBody;
  if (!validate(body))
    expect.fail(
      `${label} accepted (${exchange.status}) a body its document refuses:\n${errorsOf(validate)}\n${exchange.requestBody.slice(0, 1500)}`,
    );
};
