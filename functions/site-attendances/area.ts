import { defineArea } from '#shared/engine/area';
import { siteAttendances, siteSettings } from './definitions';

export const area = defineArea('site-attendances', {
  tag: 'Site Attendances',
  examples: 'functions/site-attendances/examples.ts',
  resources: [siteAttendances, siteSettings],
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
