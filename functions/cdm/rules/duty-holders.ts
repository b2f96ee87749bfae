/**
 * Duty holders under CDM 2015: who is appointed to which role on a scheme, and whether a caller holds
 * the role a write needs. Pure: the records come from the data layer, the answer goes back as a reason
 * to refuse (naming the role required) or nothing.
 */

export const dutyRoles = [
  'client',
  'principal_designer',
  'principal_contractor',
  'designer',
  'contractor',
] as const;

export type DutyRole = (typeof dutyRoles)[number];

export const dutyRoleTitles: Record<DutyRole, string> = {
  client: 'Client',
  principal_designer: 'Principal Designer',
  principal_contractor: 'Principal Contractor',
  designer: 'Designer',
  contractor: 'Contractor',
};

/** What an appointment names: a user, a team, a service account or a whole organisation. */
export type AppointeeType = 'users' | 'teams' | 'service-accounts' | 'organisations';

export interface Appointee {
  type: AppointeeType;
  id: string;
}

export interface ActiveAppointment {
  role: DutyRole;
  appointee: Appointee;
}

/** The caller as appointments can name it: itself, its teams, and the organisations it holds grants in. */
export interface Caller {
  id: string;
  teams: readonly string[];
  organisations: readonly string[];
}

const names = (caller: Caller, appointee: Appointee): boolean =>
  appointee.type === 'teams'
    ? caller.teams.includes(appointee.id)
    : appointee.type === 'organisations'
      ? caller.organisations.includes(appointee.id)
      : appointee.id === caller.id;

/** Every role the caller holds on the scheme through an active appointment. */
export const rolesHeld = (caller: Caller, appointments: readonly ActiveAppointment[]): Set<DutyRole> =>
  new Set(appointments.filter((a) => names(caller, a.appointee)).map((a) => a.role));

/** Why the caller may not do `action`, naming the role(s) required; null when one of them is held. */
export const roleRefusal = (
  held: ReadonlySet<DutyRole>,
  anyOf: readonly DutyRole[],
  action: string,
): string | null => {
  if (anyOf.some((role) => held.has(role))) return null;
  const required = anyOf.map((role) => `the ${dutyRoleTitles[role]}`).join(' or ');
  return `Only ${required} on this scheme may ${action}.`;
};

/**
 * Roles one appointment may be given once: a scheme has one Client, one Principal Designer and one
 * Principal Contractor at a time (regulations 5 and 4(1)); designers and contractors may be many.
 */
export const singleHolderRoles: ReadonlySet<DutyRole> = new Set([
  'client',
  'principal_designer',
  'principal_contractor',
]);
