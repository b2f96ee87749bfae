/**
 * Turns any failure into a JSON:API error document. Only errors that carry a status below 500 reach the
 * client as they are; anything else is a generic 500 and its stack goes to the log with the request id.
 */
import { StorageLimitExceeded } from '../../data/storage-limits';
import { TRANSACTION_MAX, WriteRefused } from '../../data/transaction';
import { isTransient } from '../../data/unavailable';
import { errorDocument } from '../../jsonapi/document';
import {
  ApiError,
  errorObjects,
  InternalError,
  RecordTooLargeError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../jsonapi/errors';
import type { ApiMiddleware } from '../api-context';
import { log } from '../log';
import { Reply, toResult } from '../reply';

interface HttpError extends Error {
  statusCode: number;
  expose?: boolean;
}

const isHttpError = (error: Error): error is HttpError =>
  typeof (error as Partial<HttpError>).statusCode === 'number';

/** Errors raised by middy's own middlewares, in the catalogue's terms. */
const fromMiddy = (error: HttpError): ApiError => {
  if (error.statusCode === 415) return new UnsupportedMediaTypeError('The request body must be JSON:API.');
  // The parser refuses members JavaScript would read as a prototype (JSON makes them plain members).
  if (error.message === 'Forbidden key in JSON body') {
    return new ValidationError({
      detail: 'No member may be named __proto__ (nor constructor with a prototype member).',
      source: { pointer: '' },
    });
  }
  return new ValidationError({ detail: 'The request body is not valid JSON.', source: { pointer: '' } });
};

export const toApiError = (error: Error): ApiError => {
  if (error instanceof ApiError) return error;
  if (isHttpError(error) && error.statusCode < 500) return fromMiddy(error);
  if (isTransient(error)) return new ServiceUnavailableError();
  // A value the table cannot hold is the client's to change: 413 for a record too large, else 400.
  if (error instanceof StorageLimitExceeded) {
    return error.limit === 'item'
      ? new RecordTooLargeError(error.message)
      : new ValidationError({ detail: error.message });
  }
  // A change that touches more than one transaction holds (records, their checks and their events).
  if (error instanceof WriteRefused && error.code === 'too-large') {
    return new RecordTooLargeError(
      `The change touches too many records to apply at once (DynamoDB takes ${TRANSACTION_MAX} items in a transaction, events included); split it.`,
    );
  }
  return new InternalError();
};

export const jsonApiErrors = (): ApiMiddleware => ({
  onError: (request) => {
    const error = request.error ?? new Error('unknown failure');
    const apiError = toApiError(error);
    const fields = {
      requestId: request.context.requestId,
      status: apiError.status,
      route: request.event.routeKey,
    };
    if (apiError.status === 503) log.warn(error.message, { ...fields, error: error.name });
    else if (apiError.status >= 500) log.error(error.message, { ...fields, stack: error.stack });
    else log.info(apiError.title, fields);
    request.response = toResult(
      new Reply(apiError.status, errorDocument(errorObjects(apiError)), apiError.headers),
    );
  },
});
