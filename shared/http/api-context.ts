import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Principal } from '../auth/principal';
import type { Scope } from '../data/scope';
import type { IdempotencyState } from './middlewares/idempotency';

/** What the shared middlewares learn about a request, carried on the Lambda context to the handler. */
export interface ApiContext extends Context {
  requestId: string;
  principal: Principal | null;
  scope: Scope;
  /** Set when the request carries an `Idempotency-Key` on a route that takes one. */
  idempotency?: IdempotencyState;
}

export type ApiMiddleware = MiddlewareObj<
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Error,
  ApiContext
>;
