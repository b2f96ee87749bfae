import { defineArea } from '../area';

/** A public route serving one repository file as it is (see `Route.files`), with its media type. */
const file = <const Id extends string>(id: Id, path: string, media: string, files: string) =>
  ({
    id,
    method: 'GET',
    path,
    handler: 'functions/specifications/serve-file.ts',
    answers: { status: 200, media },
    files: [files],
    auth: [],
    permission: null,
    access: {},
    query: [],
  }) as const;

/** Scalar's standalone build: the renderer and its styles in one script, served from here, not a CDN. */
const SCALAR = 'node_modules/@scalar/api-reference/dist/browser/standalone.js';

export const area = defineArea('specifications', {
  tag: 'Specifications',
  resources: [],
  routes: [
    file('getOpenApiJson', '/v3/specifications/openapi.json', 'application/json', 'docs/openapi.json'),
    file('getOpenApiYaml', '/v3/specifications/openapi.yaml', 'application/yaml', 'docs/openapi.yaml'),
    file('getChangelog', '/v3/specifications/changelog.md', 'text/markdown', 'docs/CHANGELOG.md'),
    // The docs page: its HTML, the renderer, and the script that points the renderer at the document.
    file('getDocsPage', '/docs', 'text/html', 'functions/specifications/docs/index.html'),
    file('getDocsRenderer', '/docs/scalar.js', 'text/javascript', SCALAR),
    file(
      'getDocsScript',
      '/docs/reference.js',
      'text/javascript',
      'functions/specifications/docs/reference.js',
    ),
  ],
});
