import { defineArea } from '#shared/engine/area';
import { invitations } from './invitations';
import { jobRoles } from './job-roles';
import { teams } from './teams';
import { users } from './users';

export const area = defineArea('people', {
  tag: 'Teams',
  permissions: {
    'teams:view': 'List teams and their members.',
    'teams:manage': 'Create, change and delete teams.',
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
  routes: [
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
