/**
 * Whom a rule notifies for one event (`recipientsOf`, the delivery consumer's): the users its recipient
 * specs name, read from the subject as the event carries it (`event.data`) and from the organisation's
 * grants, de-duplicated, only users (no service accounts), only the organisation's active users, and
 * without the actor unless the rule tells them of their own act.
 *
 * By permission: every user holding it in the event's organisation, directly or through a team. The
 * organisation's grants are one partition (one Query, paged), evaluated as a principal's are
 * (`permissionsOfGrants`: at most two BatchGetItems for role groups and custom roles); the teams those
 * grants name, and the users found, are BatchGetItems of 100. A recipient is told only what they may read:
 * rendering decides that per recipient, not this.
 */
import { permissionsOfGrants } from '#shared/auth/grant-permissions';
import type { StoredEvent } from '#shared/data/events';
import { recordsByOrg } from '#shared/data/principals';
import { readPartition } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { NotificationRule } from '#shared/engine/notification-rules';
import { type Recipient, recipientOf } from './recipient';

type Linkage = { type: string; id: string };
interface Presented {
  relationships?: Record<string, { data?: Linkage | Linkage[] | null }>;
}

/** The users a relationship of the subject names, as the event presents it. */
const usersLinked = (data: Presented, relationship: string): string[] => {
  const linked = data.relationships?.[relationship]?.data;
  const linkages = Array.isArray(linked) ? linked : linked ? [linked] : [];
  return linkages.flatMap((linkage) => (linkage.type === 'users' ? [linkage.id] : []));
};

/** The users and teams the subject names in `recipients` (a notice's), teams as their members. */
const namedRecipients = async (orgId: string, data: Presented): Promise<string[]> => {
  const linked = data.relationships?.recipients?.data;
  const linkages = Array.isArray(linked) ? linked : linked ? [linked] : [];
  const teams = linkages.filter((linkage) => linkage.type === 'teams');
  return [
    ...linkages.flatMap((linkage) => (linkage.type === 'users' ? [linkage.id] : [])),
    ...membersOf(
      await recordsByOrg(
        'teams',
        teams.map(({ id }) => ({ org_id: orgId, id })),
      ),
    ),
  ];
};

const idsIn = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
const membersOf = (teams: readonly StoredResource[]) => teams.flatMap((team) => idsIn(team.rels.members));

/** Every user holding any of the permissions in the organisation, directly or through a team. */
export const holdersOf = async (orgId: string, wanted: readonly string[]): Promise<string[]> => {
  if (wanted.length === 0) return [];
  const grants = await readPartition(scopeOf([orgId]), orgId, 'grants');
  const facts = grants.map((grant) => ({
    org_id: orgId,
    ...(typeof grant.rels.role === 'string' && { role: grant.rels.role }),
    ...(typeof grant.rels.role_group === 'string' && { role_group: grant.rels.role_group }),
  }));
  const { of } = await permissionsOfGrants(facts);
  const giving = grants.filter((_, i) => {
    const given = of([facts[i] ?? { org_id: orgId }]).get(orgId);
    return wanted.some((permission) => given?.has(permission as never));
  });
  const teams = giving.flatMap((grant) => (typeof grant.rels.team === 'string' ? [grant.rels.team] : []));
  return [
    ...giving.flatMap((grant) => (typeof grant.rels.user === 'string' ? [grant.rels.user] : [])),
    ...membersOf(
      await recordsByOrg(
        'teams',
        teams.map((id) => ({ org_id: orgId, id })),
      ),
    ),
  ];
};

/**
 * The users a rule names for one event, each with their address (their records are read here, so their
 * mail reads nothing again): see the module's comment.
 */
export const recipientsOf = async (
  rule: Pick<NotificationRule, 'recipients' | 'tell_actor'>,
  event: Pick<StoredEvent, 'org_id' | 'actor' | 'data'>,
): Promise<Recipient[]> => {
  const data = event.data as Presented;
  const named = [
    ...rule.recipients.flatMap((spec) =>
      'relationship' in spec ? usersLinked(data, spec.relationship) : [],
    ),
    ...(rule.recipients.some((spec) => 'named' in spec) ? await namedRecipients(event.org_id, data) : []),
    ...(await holdersOf(
      event.org_id,
      rule.recipients.flatMap((spec) => ('permission' in spec ? [spec.permission] : [])),
    )),
  ];
  const candidates = [...new Set(named)].filter(
    (id) => rule.tell_actor || event.actor.kind !== 'user' || event.actor.id !== id,
  );
  // Only the organisation's own users, and only those still active: a deactivated user hears nothing.
  const users = await recordsByOrg(
    'users',
    candidates.map((id) => ({ org_id: event.org_id, id })),
  );
  const active = new Map(
    users.filter((user) => user.attributes.status === 'active').map((user) => [user.id, recipientOf(user)]),
  );
  return candidates.flatMap((id) => active.get(id) ?? []);
};
