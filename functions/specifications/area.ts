import { defineArea } from '#shared/engine/area';

/** A public route serving one repository file as it is (see `Route.files`), with its media type. */
const file = <const Id extends string, const Path extends string>(
  id: Id,
  path: Path,
  media: string,
  files: string,
) =>
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

/**
 * Swagger UI's prebuilt browser files (the renderer with React bundled in, and its stylesheet), served
 * from here, not a CDN.
 */
const SWAGGER_UI = 'node_modules/swagger-ui-dist';

export const area = defineArea('specifications', {
  tag: 'Specifications',
  resources: [],
  routes: [
    file('getOpenApiJson', '/v3/specifications/openapi.json', 'application/json', 'docs/openapi.json'),
    file('getOpenApiYaml', '/v3/specifications/openapi.yaml', 'application/yaml', 'docs/openapi.yaml'),
    file('getChangelog', '/v3/specifications/changelog.md', 'text/markdown', 'docs/CHANGELOG.md'),
    // The docs page: its HTML, the renderer and its styles, and the script that points the renderer at
    // the document.
    file('getDocsPage', '/docs', 'text/html', 'functions/specifications/docs/index.html'),
    file('getDocsRenderer', '/docs/swagger-ui.js', 'text/javascript', `${SWAGGER_UI}/swagger-ui-bundle.js`),
    file('getDocsStyles', '/docs/swagger-ui.css', 'text/css', `${SWAGGER_UI}/swagger-ui.css`),
    file(
      'getDocsScript',
      '/docs/reference.js',
      'text/javascript',
      'functions/specifications/docs/reference.js',
    ),
  ],
});
