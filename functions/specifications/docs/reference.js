/*
 * The docs page's configuration of Scalar's API reference (served at /docs/reference.js, after the
 * renderer at /docs/scalar.js). A separate file rather than an inline script, so the page's
 * Content-Security-Policy allows scripts from this origin only. Everything that would reach a Scalar
 * service at run time is off: its hosted fonts, telemetry, the AI agent, MCP, the developer toolbar; the
 * "try it" client sends requests straight to this origin (the document's server is `/`), never through a
 * proxy.
 */
const mount = document.getElementById('reference');

Scalar.createApiReference(mount, {
  url: mount.dataset.document,
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: false,
  persistAuth: false,
  documentDownloadType: 'both',
});
