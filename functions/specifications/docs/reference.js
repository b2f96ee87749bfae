/*
 * The docs page's configuration of Swagger UI (served at /docs/reference.js, after the renderer at
 * /docs/swagger-ui.js). A separate file rather than an inline script, so the page's
 * Content-Security-Policy allows scripts from this origin only. Nothing reaches a third party at run
 * time: the online validator (validator.swagger.io, which Swagger UI calls with the document's URL by
 * default) is off, and the bundle has no telemetry. "Try it out" is on for every operation and sends
 * requests to this origin (the document's server is `/`).
 */
const mount = document.getElementById('reference');

SwaggerUIBundle({
  url: mount.dataset.document,
  dom_id: '#reference',
  // Every tag's section open with its operations listed, each operation folded (Swagger UI's default,
  // stated because the page's test relies on it); tags and operations get links a reader can share.
  docExpansion: 'list',
  deepLinking: true,
  tryItOutEnabled: true,
  validatorUrl: null,
  // A token typed into "Authorize" lives as long as the tab, not in localStorage.
  persistAuthorization: false,
  displayRequestDuration: true,
  filter: true,
});
