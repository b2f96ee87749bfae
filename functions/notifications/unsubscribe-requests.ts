/**
 * The one-click unsubscribe routes' shared reading of their token (RFC 8058): what it names, or 404 for
 * anything this deployment did not seal (a bad or tampered token says nothing about who it might name).
 */
import { NotFoundError } from '#shared/jsonapi/errors';
import { openUnsubscribeToken } from './unsubscribe-tokens';

export const unsubscribeTarget = async (token: string | undefined) => {
  const named = token ? await openUnsubscribeToken(token) : null;
  if (!named) throw new NotFoundError('No such unsubscribe link.');
  return named;
};
