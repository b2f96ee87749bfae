/**
 * Migration 1: organisations made before settings (issue 21) have no settings record, so GET
 * /v3/orgs/{org_id}/settings answered 404 for them. Each gets the record a new organisation is made with,
 * committed as one (its `settings.created` event, by the migration's system actor); one that has its
 * record already is left alone.
 */
import { settingsKey } from '#shared/data/organisation-settings';
import { batchGetInScope } from '#shared/data/repository';
import { scopeOf, systemActor } from '#shared/data/scope';
import { keyId } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import type { MigrationStep } from '#shared/engine/migration-declarations';
import { defaultSettings } from '../default-settings';

export const settingsForEveryOrganisation: MigrationStep = {
  select: {
    expression: '#type = :organisations AND begins_with(pk, :tenant)',
    names: { '#type': 'type' },
    values: { ':organisations': 'organisations', ':tenant': 'ORG#' },
  },
  migrate: async (organisations, now) => {
    const scope = scopeOf(
      organisations.map((o) => o.id),
      undefined,
      systemActor('migration'),
    );
    const found = await batchGetInScope(
      scope,
      organisations.map((o) => settingsKey(o.id)),
    );
    const kept = new Set(found.map(keyId));
    const lacking = organisations.filter((o) => !kept.has(keyId(settingsKey(o.id))));
    const created = await Promise.all(
      lacking.map(async (o) => {
        try {
          await commit(scope, [{ create: defaultSettings(o.id, now) }]);
          return true;
        } catch (error) {
          // Made meanwhile (by another run): what this one would have made is there.
          if (error instanceof WriteRefused && error.code === 'exists') return false;
          throw error;
        }
      }),
    );
    return created.filter(Boolean).length;
  },
};
