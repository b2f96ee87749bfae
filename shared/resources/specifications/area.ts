import { defineArea } from '../area';

/** The OpenAPI document in JSON and YAML, and its changelog: public, like the docs page. */
const file = <const Id extends string>(id: Id, name: string, media: string, files: string) =>
  ({
    id,
    method: 'GET',
    path: `/v3/specifications/${name}`,
    handler: 'functions/specifications/serve-file.ts',
    answers: { status: 200, media },
    files: [files],
    auth: [],
    permission: null,
    access: {},
    query: [],
  }) as const;

export const area = defineArea('specifications', {
  tag: 'Specifications',
  resources: [],
  routes: [
    file('getOpenApiJson', 'openapi.json', 'application/json', 'docs/openapi.json'),
    file('getOpenApiYaml', 'openapi.yaml', 'application/yaml', 'docs/openapi.yaml'),
    file('getChangelog', 'changelog.md', 'text/markdown', 'docs/CHANGELOG.md'),
  ],
});
