/**
 * The reads behind a notice's recipients: what the write checks and counts at send, and
 * `noticeRecipients`, which the notifications consumer walks to fan a notice out. A notice keeps only
 * its spec (`{users, teams, everyone}`), bounded, so its event stays small however large the
 * organisation: "everyone" of 50,000 workers is resolved here, a page at a time, never carried.
 */
import { teams } from '#functions/people/teams';
import { users } from '#functions/people/users';
import { batchGetInScope, getItem } from '#shared/data/repository';
import { inScope, type Scope, scopeOf } from '#shared/data/scope';
import { counterKey, type StoredResource } from '#shared/data/stored-resource';
import { readCollectionPage } from '#shared/engine/collection';
import { type Recipient, recipientOf } from './recipient';
import { namedUserIds, type RecipientsSpec } from './rules/notice-recipients';

/** Users a page of recipients holds: one BatchGetItem, or one Query of the active users' index. */
export const RECIPIENT_PAGE = 100;

/** The organisation's users among `ids`, found (any status). */
export const usersOf = async (scope: Scope, orgId: string, ids: readonly string[]) =>
  ids.length === 0
    ? []
    : batchGetInScope(
        scope,
        ids.map((id) => users.keyOf(orgId, id)),
      );

/** The members of each of the organisation's teams among `ids`, by team (a team not found is absent). */
export const membersOfTeams = async (
  scope: Scope,
  orgId: string,
  ids: readonly string[],
): Promise<Map<string, string[]>> => {
  const found =
    ids.length === 0
      ? []
      : await batchGetInScope(
          scope,
          ids.map((id) => teams.keyOf(orgId, id)),
        );
  return new Map(found.map((team) => [team.id, membersOf(team)]));
};

const membersOf = (team: StoredResource): string[] => {
  const members = team.rels.members;
  return Array.isArray(members) ? members.filter((id): id is string => typeof id === 'string') : [];
};

const isActive = (user: StoredResource) => user.attributes.status === 'active';

/** How many of the organisation's users are active: the count the users' `status` filter keeps. */
export const activeUserCount = async (orgId: string): Promise<number> => {
  const counts = await getItem<Record<string, unknown>>(counterKey(orgId, users.type));
  const active = counts?.['status#active'];
  return typeof active === 'number' ? active : 0;
};

/** The active users among `ids`, a page at a time. */
async function* activeAmong(scope: Scope, orgId: string, ids: readonly string[]) {
  for (let i = 0; i < ids.length; i += RECIPIENT_PAGE) {
    const page = (await usersOf(scope, orgId, ids.slice(i, i + RECIPIENT_PAGE))).filter(isActive);
    if (page.length > 0) yield page.map(recipientOf);
  }
}

/** Every active user of the organisation, a page at a time, from the users' `status` index. */
async function* activeUsers(scope: Scope, orgId: string) {
  if (!inScope(scope, orgId)) return;
  // The engine reads the users' index within one organisation only.
  const own = scopeOf([orgId], undefined, scope.actor);
  let after: object | 'start' | undefined = 'start';
  while (after !== undefined) {
    const page = await readCollectionPage(own, users, {
      filters: [{ field: 'status', path: 'attributes.status', op: 'eq', value: 'active' }],
      sort: { field: 'created_at', path: 'meta.created_at', descending: false },
      page: { limit: RECIPIENT_PAGE, offset: 0, after },
      include: [],
    });
    if (page.items.length > 0) yield page.items.map(recipientOf);
    after = page.next;
  }
}

/**
 * The users a notice reaches, as they are now, in pages of at most 100, each user once with their
 * address (read with them, so their mail reads nothing again): with
 * `everyone`, the organisation's active users (whom else it names are among them); else the users it
 * names and its teams' members who are active. Bounded reads: a BatchGetItem per team list and per
 * page of named users, one Query per page of everyone. For the consumer that fans the notice out.
 */
export async function* noticeRecipients(
  notice: StoredResource,
  scope: Scope = scopeOf([notice.org_id]),
): AsyncGenerator<Recipient[]> {
  const spec = notice.attributes.recipients as RecipientsSpec;
  if (spec.everyone) {
    yield* activeUsers(scope, notice.org_id);
    return;
  }
  const membersOf = await membersOfTeams(scope, notice.org_id, spec.teams);
  yield* activeAmong(scope, notice.org_id, namedUserIds(spec, membersOf));
}

/** What a notice's send reads of its recipients: the users and teams it names, and whom they reach now. */
export const readRecipientFacts = async (scope: Scope, orgId: string, spec: RecipientsSpec) => {
  const [named, membersOf, activeCount] = await Promise.all([
    usersOf(scope, orgId, spec.users),
    membersOfTeams(scope, orgId, spec.teams),
    spec.everyone ? activeUserCount(orgId) : Promise.resolve(0),
  ]);
  const found = { users: new Set(named.map((user) => user.id)), teams: new Set(membersOf.keys()) };
  // Without everyone, the count is of the named users and the teams' members who are active (read once).
  const members = spec.everyone ? [] : namedUserIds({ ...spec, users: [] }, membersOf);
  const others = await usersOf(
    scope,
    orgId,
    members.filter((id) => !found.users.has(id)),
  );
  const active = new Set([...named, ...others].filter(isActive).map((user) => user.id));
  return { found, membersOf, activeUsers: activeCount, isActive: (id: string) => active.has(id) };
};
