import { defineArea } from '#shared/engine/area';
import { migration } from '#shared/engine/migration-declarations';
import { invitations } from './invitations';
import { jobRoles } from './job-roles';
import { teams } from './teams';
import { users } from './users';

/** JSON:API's to-many relationship endpoints for a team's members (team-member-writes.ts). */
const members = {
  path: '/v3/orgs/{org_id}/people/teams/{team_id}/relationships/members',
  tag: 'Teams',
  answers: { status: 200, relationship: 'users', many: true },
} as const;

export const area = defineArea('people', {
  tag: 'Teams',
  permissions: {
    'teams:view': 'List teams and their members.',
    'teams:manage':
      'Create, change and delete teams, and change their members and lead (adding members gives them the team’s grants: only those one holds oneself).',
    'users:view': 'See the organisation’s users and their profiles.',
    'users:manage':
      'Change users’ profiles, suspend, deactivate and reactivate them, and set their job roles.',
    'users:self': 'Change one’s own profile (not one’s status, grants or job role).',
    'invitations:view': 'See the organisation’s invitations and their state (never their tokens).',
    'invitations:manage':
      'Invite people by e-mail (giving at most the permissions one holds oneself), resend and revoke invitations.',
    'job-roles:view': 'See the organisation’s job roles.',
    'job-roles:manage': 'Create, change and delete job roles.',
  },
  resources: [teams, users, jobRoles, invitations],
  migrations: [
    migration(2, 'user-index-keys', {
      module: 'functions/people/migrations/user-index-keys.ts',
      step: 'userIndexKeys',
    }),
    // 15 once migration 14 (work nodes' cost sums) lands: the runner refuses a gap.
    migration(15, 'user-filter-index', {
      module: 'functions/people/migrations/user-filter-index.ts',
      step: 'userFilterIndex',
    }),
    migration(33, 'team-filter-index', {
      module: 'functions/people/migrations/team-filter-index.ts',
      step: 'teamFilterIndex',
    }),
  ],
  // Which of its events notify whom by default (issue 43; organisations override them per rule id).
  notificationRules: [
    {
      id: 'invitation-accepted',
      event: 'invitation.accepted',
      category: 'people',
      severity: 'info',
      recipients: [{ relationship: 'invited_by' }],
      title: 'Invitation accepted',
      body: '{attributes.email} accepted your invitation and has joined the organisation.',
      generic: { title: 'Invitation accepted', body: 'Someone accepted an invitation you sent.' },
    },
  ],
  routes: [
    {
      ...members,
      id: 'getTeamMembers',
      method: 'GET',
      handler: 'functions/people/get-team-members.ts',
      permission: 'teams:view',
    },
    {
      ...members,
      id: 'addTeamMembers',
      method: 'POST',
      handler: 'functions/people/add-team-members.ts',
      permission: 'teams:manage',
      // 403: adding would give grants the team holds beyond the caller's own.
      errors: [403],
    },
    {
      ...members,
      id: 'removeTeamMembers',
      method: 'DELETE',
      handler: 'functions/people/remove-team-members.ts',
      permission: 'teams:manage',
    },
    {
      ...members,
      id: 'replaceTeamMembers',
      method: 'PATCH',
      handler: 'functions/people/replace-team-members.ts',
      permission: 'teams:manage',
      errors: [403],
    },
    {
      // The token alone authenticates: it is the credential the e-mail carried.
      id: 'acceptInvitation',
      method: 'POST',
      path: '/v3/invitations/accept',
      handler: 'functions/people/accept-invitation.ts',
      tag: 'Invitations',
      answers: { status: 200, resource: 'users' },
      auth: [],
      permission: null,
      // 403: it would give permissions its inviter no longer holds (invitation-authority.ts).
      errors: [401, 403, 409],
    },
  ],
});
