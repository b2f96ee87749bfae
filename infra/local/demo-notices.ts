/** The demo organisation's stop-work notice: to everyone, requiring acknowledgement, sent by its lead. */
import { createNotice } from '#functions/notifications/notice-writes';
import type { Principal } from '#shared/auth/principal';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';

/** `team`: a team the lead belongs to, where an unacknowledged notice escalates. */
export const loadDemoNotice = async (orgId: string, lead: StoredResource, team: string) => {
  const sender: Principal = {
    id: lead.id,
    kind: 'user',
    name: 'Demo lead',
    permissions: new Map([[orgId, new Set(['notices:send'] as const)]]),
    teams: { [orgId]: [team] },
  };
  return createNotice(
    { scope: scopeOf([orgId]), orgId, principal: sender },
    {
      data: {
        type: 'notices',
        attributes: {
          title: 'Stop work: trench collapse at the depot',
          body: 'All excavation stops until the trench supports are inspected. Acknowledge this notice.',
          severity: 'critical',
          requires_ack: true,
          escalate_after: 'PT2H',
          recipients: { everyone: true },
        },
        relationships: { sender_team: { data: { type: 'teams', id: team } } },
      },
    },
  );
};
