import { defineArea } from '#shared/engine/area';
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
  },
  resources: [siteAttendances, siteSettings],
  dueWork: [AUTO_SIGN_OUT],
  routes: [
    {
      id: 'signOutSiteAttendance',
      method: 'POST',
      path: '/v3/site-attendances/{site_attendance_id}/sign-out',
      handler: 'functions/site-attendances/sign-out.ts',
      answers: { status: 200, resource: 'site-attendances' },
      permission: 'site-attendances:manage',
      errors: [409],
    },
  ],
});
