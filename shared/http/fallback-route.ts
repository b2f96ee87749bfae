/**
 * The catch-all: API Gateway's `$default` route and the local adapter send every request that matches
 * no route of the table, so unknown paths (404) and wrong methods (405) answer as JSON:API documents.
 * Its own module, so an area function's entry names it without loading the composition root.
 */
import type { Route } from './route';

export const fallbackRoute = {
  id: 'fallback',
  method: 'GET',
  path: '$default',
  area: 'fallback',
  tag: 'Status',
  handler: 'functions/fallback/not-found.ts',
  auth: [],
  permission: null,
  access: {},
} as const satisfies Route;
