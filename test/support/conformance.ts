/** Validates response bodies against the official JSON:API 1.1 schema kept in test/conformance. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const schemaFile = resolve(import.meta.dirname, '../conformance/jsonapi-1.1.schema.json');
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));

/** Throws with the schema's complaints when `body` is not a valid JSON:API 1.1 document. */
export const assertJsonApiDocument = (body: unknown): void => {
  if (!validate(body)) {
    throw new Error(
      `response is not a valid JSON:API 1.1 document:\n${ajv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(body, null, 2).slice(0, 2000)}`,
    );
  }
};
