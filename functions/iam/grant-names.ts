/**
 * A role or role group changed: every user holding it, directly or through a team, is shown its current
 * name (`meta.grants`, kept on the user's record as each grant commits). From the stream, after the change
 * commits, because a role may be held by more users than one transaction holds: one transaction per grant
 * naming it, which also checks the grant is as read (one revoked or changed meanwhile wrote its own name).
 * Idempotent: it writes the name the role has now, whatever the event carried.
 */

import { teams } from '#functions/people/teams';
import type { StoredEvent } from '#shared/data/events';
import { batchGetInScope, getConsistent, readPartition } from '#shared/data/repository';
import { scopeOf, systemActor } from '#shared/data/scope';
import { commit, WriteRefused } from '#shared/data/transaction';
import { grants, roleGroups, roles } from './definitions';
import { holdingOps } from './grant-writes';

const named: Record<string, 'role' | 'role_group' | undefined> = {
  [roles.type]: 'role',
  [roleGroups.type]: 'role_group',
};

/** The `grant-names` consumer (`area.ts`). */
export const keepGrantNames = async (event: StoredEvent): Promise<void> => {
  const relationship = named[event.subject.type];
  if (!relationship || !event.event.endsWith('.updated')) return;
  const scope = scopeOf([event.org_id], undefined, systemActor('grant-names'));
  const definition = event.subject.type === roles.type ? roles : roleGroups;
  const given = await getConsistent(scope, {
    ...definition.keyOf(event.org_id, event.subject.id),
    orgId: event.org_id,
  });
  if (!given) return;
  const naming = (await readPartition(scope, event.org_id, grants.type)).filter(
    (g) => g.rels[relationship] === given.id,
  );
  const teamIds = naming.flatMap((g) => (typeof g.rels.team === 'string' ? [g.rels.team] : []));
  const members = new Map(
    (
      await batchGetInScope(
        scope,
        teamIds.map((id) => teams.keyOf(event.org_id, id)),
      )
    ).map((t) => [t.id, Array.isArray(t.rels.members) ? t.rels.members : []]),
  );
  for (const grant of naming) {
    const holders =
      typeof grant.rels.team === 'string'
        ? (members.get(grant.rels.team) ?? [])
        : [String(grant.rels.user ?? grant.rels.service_account)];
    await commit(scope, [
      { check: { pk: grant.pk, sk: grant.sk, version: grant.version } },
      ...holdingOps(grant, holders, String(given.attributes.name)),
    ]).catch((error: unknown) => {
      if (!(error instanceof WriteRefused && error.code === 'stale')) throw error;
    });
  }
};
