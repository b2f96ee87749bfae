import { defineArea } from '#shared/engine/area';
import { eventConsumer } from '#shared/engine/event-consumers';
import { migration } from '#shared/engine/migration-declarations';
import { siteAttendances, siteSettings } from './definitions';
import { AUTO_SIGN_OUT } from './due-work';

export const area = defineArea('site-attendances', {
  tag: 'Site Attendances',
  feature: {
    description: 'Site sign-in and sign-out, registers and the automatic sign-out at closing time.',
  },
  permissions: {
    'site-attendances:view': 'See who is and was on site, and export a roll call.',
    'site-attendances:manage':
      'Sign people in and out of sites, correct attendance times, and set sites’ rules.',
    'site-attendances:override':
      'Sign in someone the gate refuses (a missing induction or qualification), giving a reason (audited).',
    'site-attendances:self':
      'Sign oneself in and out of sites (from one’s own phone), through the same gate; no one else.',
  },
  resources: [siteAttendances, siteSettings],
  dueWork: [AUTO_SIGN_OUT],
  consumers: [
    eventConsumer(
      'closing-times',
      { module: 'functions/site-attendances/closing-time.ts', handle: 'rescheduleClosing' },
      'keep',
    ),
  ],
  // Which of its events notify whom by default (issue 43; organisations override them per rule id): the
  // site's managers (who may override the gate) hear of anyone let in with warnings or an override.
  notificationRules: [
    {
      id: 'site-attendance-let-in-with-warnings',
      event: 'site-attendance.created',
      category: 'safety',
      severity: 'warning',
      recipients: [{ permission: 'site-attendances:override' }],
      when: { path: 'attributes.checks.outcome', in: ['warned', 'overridden'] },
      title: 'Signed in with warnings',
      body: 'Someone was let on site at {attributes.signed_in_at} with the gate’s checks {attributes.checks.outcome}.',
      generic: {
        title: 'Signed in with warnings',
        body: 'Someone was let on site despite the gate’s checks.',
      },
    },
  ],
  routes: [],
  migrations: [
    // Attendances' site entries (lsi2), and those the code before month buckets wrote in the former partition after they began.
    // Version 22 is this migration's; 14 on this branch until 14–21 land beside it (the runner refuses gaps).
    migration(19, 'attendance-buckets-and-sites', {
      module: 'functions/site-attendances/migrations/attendance-buckets-and-sites.ts',
      step: 'attendanceBucketsAndSites',
    }),
  ],
});
