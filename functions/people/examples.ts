/** A body for each of the people area's write routes (null: it takes none); see shared/engine/examples.ts. */
import { many, type RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  createTeam: (i) => ({
    data: {
      type: 'teams',
      attributes: { name: 'Isolation crew', description: 'Made by a test.' },
      relationships: { members: many('users', [i.person]) },
    },
  }),
  updateTeam: (i) => ({
    data: { type: 'teams', id: i.team_id, attributes: { description: 'Changed by a test.' } },
  }),
  addTeamMembers: (i) => ({ data: [{ type: 'users', id: i.colleague }] }),
  replaceTeamMembers: (i) => ({
    data: [
      { type: 'users', id: i.person, meta: { lead: true } },
      { type: 'users', id: i.colleague },
    ],
  }),
  removeTeamMembers: (i) => ({
    data: [
      { type: 'users', id: i.person },
      { type: 'users', id: i.colleague },
    ],
  }),
  createJobRole: (i) => ({
    data: { type: 'job-roles', attributes: { name: 'Site supervisor', code: `${i.reference}-SSUP` } },
  }),
  updateJobRole: (i) => ({
    data: { type: 'job-roles', id: i.job_role_id, attributes: { description: 'Runs a site day to day.' } },
  }),
  updateUser: (i) => ({
    data: {
      type: 'users',
      id: i.user_id,
      attributes: { profile: { work: { occupation: 'Isolation tester' } } },
      relationships: { job_role: { data: { type: 'job-roles', id: i.job_role_id } } },
    },
  }),
  createInvitation: (i) => ({
    data: {
      type: 'invitations',
      attributes: { email: `${i.reference}.invitee@isolation.example`.toLowerCase() },
      relationships: {
        roles: { data: [{ type: 'roles', id: i.role_id }] },
        role_groups: many('role-groups', [i.role_group_id]),
        teams: many('teams', [i.team_id]),
        job_role: { data: { type: 'job-roles', id: i.job_role_id } },
      },
    },
  }),
  suspendUser: null,
  deactivateUser: null,
  reactivateUser: null,
  resendInvitation: null,
  revokeInvitation: null,
};
