import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Principal } from '../auth/principal';
import type { IdempotencyClaim } from '../data/idempotency';
import type { Scope } from '../data/scope';

/** What the shared middlewares learn about a request, carried on the Lambda context to the handler. */
export interface ApiContext extends Context {
  requestId: string;
  principal: Principal | null;
  scope: Scope;
  /** Headers every answer to the request carries, errors too (a request budget's `RateLimit`). */
  responseHeaders?: Record<string, string>;
  /** Set when the request carries an `Idempotency-Key` on a route that takes one. */
  idempotency?: IdempotencyState;
}

/** A request's `Idempotency-Key`: the key, the body it fingerprints, its claim, and any answer to replay. */
export interface IdempotencyState {
  key: string;
  body: Buffer;
  claim?: IdempotencyClaim;
  /** The kept answer, for the handler wrapper to send instead of running the handler. */
  replay?: APIGatewayProxyStructuredResultV2;
}

export type ApiMiddleware = MiddlewareObj<
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Error,
  ApiContext
>;
