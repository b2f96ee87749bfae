/**
 * The permission catalogue: every permission a route can require, `<resource>:<action>`, with what it
 * allows. Served read-only at GET /v3/iam/permissions; a test fails if the route table names a
 * permission that is not here.
 */
export const permissionCatalogue = {
  'organisations:view': 'See the organisations the caller holds grants in.',
  'teams:view': 'List teams and their members.',
  'teams:manage': 'Create, change and delete teams.',
  'users:view': 'See the organisation’s users and their profiles.',
  'users:manage': 'Change users’ profiles, suspend, deactivate and reactivate them, and set their job roles.',
  'users:self': 'Change one’s own profile (not one’s status, grants or job role).',
  'settings:view': 'See the organisation’s settings (time zone, locale, session lifetime, page size, SSO).',
  'settings:manage': 'Change the organisation’s settings.',
  'invitations:view': 'See the organisation’s invitations and their state (never their tokens).',
  'invitations:manage':
    'Invite people by e-mail (giving at most the permissions one holds oneself), resend and revoke invitations.',
  'job-roles:view': 'See the organisation’s job roles.',
  'job-roles:manage': 'Create, change and delete job roles.',
  'qualifications:view':
    'See qualification types, people’s awards and specifications, and evaluate people against them.',
  'qualifications:manage':
    'Create, change and delete qualification types and specifications, record awards (pending approval) and revoke them.',
  'qualifications:approve': 'Approve or reject awards pending approval, having checked their evidence.',
  'site-attendances:view': 'See who is and was on site, and export a roll call.',
  'site-attendances:manage':
    'Sign people in and out of sites, correct attendance times, and set sites’ rules.',
  'site-attendances:override':
    'Sign in someone the gate refuses (a missing induction or qualification), giving a reason (audited).',
  'feature-configurations:view': 'See which features are configured for the organisation.',
  'feature-configurations:manage': 'Change feature configurations.',
  'service-accounts:view': 'See service accounts and their keys (never their secrets).',
  'service-accounts:manage': 'Create, change and delete service accounts and their keys.',
  'roles:view': 'See roles, role groups and the permission catalogue.',
  'roles:manage': 'Create, change and delete custom roles and role groups.',
  'grants:view': 'See who holds which role in the organisation.',
  'grants:manage': 'Give and revoke roles and role groups.',
  'sso-providers:manage': 'See, add and change the organisation’s single sign-on providers.',
  'assets:view':
    'See equipment, vehicles and the catalogue of manufacturers, models, categories and specifications.',
  'assets:manage': 'Create, change and delete equipment, vehicles and their catalogue records.',
  'places:view': 'See locations, properties and streets.',
  'places:manage': 'Create, change, delete and import locations.',
  'audit-events:view': 'Read the organisation’s audit events and records’ histories.',
  'projects:view': 'See scheme contracts, schemes, work orders and operations.',
  'projects:manage':
    'Create, change, delete and restore scheme contracts, schemes, work orders and operations.',
  'costs:view': 'See rate codes and their versions, and cost sheets.',
  'costs:manage': 'Create rate codes, add rate versions, and create and change cost sheets and lines.',
  'cost-lines:view': 'See cost lines and the cost roll-ups computed from them.',
  'customers:view': 'See customer contacts, accounts, interactions and appointments.',
  'customers:manage': 'Create, change and delete customer contacts, accounts, interactions and appointments.',
  'agents:view': 'See the organisation’s agents and their briefings.',
  'agents:manage': 'Create, change and delete agents, and store and update their briefings.',
  'comments:view': 'Read comments on the records of the organisation.',
  'comments:create': 'Comment on records (and delete one’s own comments).',
  'comments:moderate': 'Delete anyone’s comments.',
  'documents:view': 'See folders and documents, and download them.',
  'documents:manage': 'Create, upload, move, rename and delete folders and documents.',
  'device-backups:view': 'See and download the organisation’s device backups (kept 30 days).',
  'device-backups:create': 'Act as a device: see backup requests, upload and complete backups.',
  'device-backups:request': 'Ask a device for a backup.',
  'street-works:view':
    'See permits, street works activities and the protections the national service sent for them.',
  'appointments:view': 'See who is appointed to which CDM duty-holder role on schemes, and the history.',
  'appointments:manage':
    'Appoint duty holders to schemes and end appointments (once a scheme has a Client, only the Client).',
  'pre-construction-information:view': 'See pre-construction information, site hazards and hazard proposals.',
  'pre-construction-information:manage':
    'Write pre-construction information, site hazards and hazard proposals, in the duty-holder role each needs.',
  'webhooks:view':
    'See webhook subscriptions (never their signing secrets) and their deliveries: attempts, answers and retries.',
  'webhooks:manage':
    'Create, change and delete webhook subscriptions, rotate their signing secrets and redeliver deliveries.',
  'construction-phase-plans:view':
    'See construction phase plans, their risks, versions and proposed changes.',
  'construction-phase-plans:manage':
    'Write construction phase plans and risks, hand plans over, and propose and decide changes, in the duty-holder role each needs.',
} as const;

export type Permission = keyof typeof permissionCatalogue;

export const permissions = Object.keys(permissionCatalogue) as Permission[];

export const isPermission = (name: string): name is Permission => Object.hasOwn(permissionCatalogue, name);
