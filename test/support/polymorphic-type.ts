/**
 * A test-only declared type with a polymorphic relationship, registered only where a test imports it (no
 * area lists it, so it has no route, permission or bundle): an assignment whose `assignee` is a user, a team
 * or a job role, the link the next areas (actions, reviews) will declare. Its routes are built here for
 * tests to call the generic handlers through the whole middy stack, as the gateway would.
 */
import * as z from 'zod';
import type { Permission } from '#shared/domain/permissions';
import { createHandler, getHandler, listHandler } from '#shared/engine/crud-handlers';
import { polymorphicFilters } from '#shared/engine/relationship-targets';
import { defineResource } from '#shared/engine/resource-definition';
import { declaredCrud } from '#shared/engine/simple-crud';
import type { ApiContext } from '#shared/http/api-context';
import type { Route } from '#shared/http/route';
import { JSONAPI } from './api';
import { gatewayEvent } from './gateway-event';

export const assignee = { types: ['users', 'teams', 'job-roles'] } as const;

export const testAssignments = defineResource({
  type: 'test-assignments',
  collectionPath: '/v3/orgs/{org_id}/test-assignments',
  itemPath: '/v3/test-assignments/{test_assignment_id}',
  events: false,
  writes: () => ({ attributes: { title: z.string().min(1).max(100) }, relationships: ['assignee'] }),
  relationships: { assignee },
  collection: {
    filters: polymorphicFilters('assignee', assignee),
    defaultSort: 'created_at',
    includes: ['assignee'],
  },
});

const route = (id: string, method: Route['method'], path: string, permission: Permission): Route => ({
  id,
  method,
  path,
  area: 'test',
  tag: 'Test',
  handler: 'x',
  auth: ['OAuth2'],
  permission,
  access: { table: method === 'GET' ? 'read' : 'write' },
});

const collectionPath = '/v3/orgs/{org_id}/test-assignments';
const itemPath = '/v3/test-assignments/{test_assignment_id}';
const handlers = {
  create: createHandler(
    route('createTestAssignment', 'POST', collectionPath, 'teams:manage'),
    await declaredCrud(testAssignments),
  ),
  list: listHandler(route('listTestAssignments', 'GET', collectionPath, 'teams:view'), testAssignments),
  get: getHandler(
    route('getTestAssignment', 'GET', itemPath, 'teams:view'),
    testAssignments,
    'test_assignment_id',
  ),
};

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of response documents
  body: any;
}

const answer = async (result: Promise<{ statusCode?: number; body?: string }>): Promise<Answer> => {
  const { statusCode = 0, body } = await result;
  return { status: statusCode, body: body ? JSON.parse(body) : undefined };
};

const headers = (token: string) => ({ authorization: `Bearer ${token}`, accept: JSONAPI });

/** The test type's three routes, called as a client of the organisation `orgId` calls them. */
export const assignmentsApi = (token: string, orgId: string) => ({
  create: (document: object) =>
    answer(
      handlers.create(
        gatewayEvent({
          method: 'POST',
          route: collectionPath,
          path: `/v3/orgs/${orgId}/test-assignments`,
          headers: { ...headers(token), 'content-type': JSONAPI },
          pathParameters: { org_id: orgId },
          body: JSON.stringify(document),
        }),
        {} as ApiContext,
      ),
    ),
  list: (query = '') =>
    answer(
      handlers.list(
        gatewayEvent({
          method: 'GET',
          route: collectionPath,
          path: `/v3/orgs/${orgId}/test-assignments`,
          query,
          headers: headers(token),
          pathParameters: { org_id: orgId },
        }),
        {} as ApiContext,
      ),
    ),
  get: (id: string, query = '') =>
    answer(
      handlers.get(
        gatewayEvent({
          method: 'GET',
          route: itemPath,
          path: `/v3/test-assignments/${id}`,
          query,
          headers: headers(token),
          pathParameters: { test_assignment_id: id },
        }),
        {} as ApiContext,
      ),
    ),
});
