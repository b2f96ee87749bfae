/** The OpenAPI document as the files the API serves: pretty JSON (diffable) and YAML. */
import { stringify } from 'yaml';
import { openApiDocument } from './document';

export const SPECIFICATION_FILES = ['docs/openapi.json', 'docs/openapi.yaml'] as const;

export const specificationFiles = async (): Promise<Record<'openapi.json' | 'openapi.yaml', string>> => {
  const document = await openApiDocument();
  return {
    'openapi.json': `${JSON.stringify(document, null, 2)}\n`,
    'openapi.yaml': stringify(document, { lineWidth: 0, aliasDuplicateObjects: false }),
  };
};
