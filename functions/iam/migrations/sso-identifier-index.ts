/**
 * SSO providers made before sign-in through them existed (issue 21, 75c8e62) kept their
 * `oidc_identifier` on the record alone: no `OIDC#<identifier>` entry, the one key sign-in finds a
 * provider by, so their login URL answered 404; and they have no `allowed_domains`, which every answer
 * now carries. Each gets the entry a create writes today (which organisation, which provider), put only
 * while the provider is there and only if it has none, and then the domains a create gives by default,
 * none (sign-in makes nobody just in time, as it made nobody before). The entry goes first: the record's
 * rewrite is what takes it out of the selection, so a run cut between the two finds it again.
 */
import { putBeside } from '#shared/data/migrations';
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { reindexStep } from '#shared/engine/reindex-step';
import { ssoProviders } from '../definitions';
import { oidcIdentifierKey } from '../sso-providers';

const withDomains = reindexStep(
  ssoProviders,
  {
    // The provider's record (its sort key is its id), not its name claim, as the old code stored it.
    expression:
      '#type = :type AND begins_with(pk, :tenant) AND sk = #id AND attribute_not_exists(#attributes.#domains)',
    names: { '#type': 'type', '#id': 'id', '#attributes': 'attributes', '#domains': 'allowed_domains' },
    values: { ':type': ssoProviders.type, ':tenant': 'ORG#' },
  },
  (provider) => ({ ...provider, attributes: { allowed_domains: [], ...provider.attributes } }),
);

export const ssoIdentifierIndex: MigrationStep = {
  select: withDomains.select,
  migrate: async (providers, now) => {
    await Promise.all(
      providers.map((provider) =>
        putBeside(provider, {
          ...oidcIdentifierKey(String(provider.meta.oidc_identifier)),
          org_id: provider.org_id,
          holder_id: provider.id,
        }),
      ),
    );
    return withDomains.migrate(providers, now);
  },
};
