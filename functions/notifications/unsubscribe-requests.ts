/**
 * The one-click unsubscribe routes' shared reading of their token (RFC 8058): what it names, or 404 for
 * anything this deployment did not seal (a bad or tampered token says nothing about who it might name);
 * and the organisation's name their pages show.
 */
import { organisations } from '#functions/organisations/definitions';
import { getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import { NotFoundError } from '#shared/jsonapi/errors';
import { openUnsubscribeToken } from './unsubscribe-tokens';

export const unsubscribeTarget = async (token: string | undefined) => {
  const named = token ? await openUnsubscribeToken(token) : null;
  if (!named) throw new NotFoundError('No such unsubscribe link.');
  return named;
};

/** The organisation's name, for a person reading an unsubscribe page; its id if it has none. */
export const organisationName = async (orgId: string) => {
  const organisation = await getItem<StoredResource>(organisations.keyOf(orgId, orgId));
  const name = organisation?.attributes.name;
  return typeof name === 'string' && name !== '' ? name : orgId;
};
