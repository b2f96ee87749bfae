import { defineArea } from '#shared/engine/area';
import { siteAttendances, siteSettings } from './definitions';
import { AUTO_SIGN_OUT } from './due-work';

export const area = defineArea('site-attendances', {
  tag: 'Site Attendances',
  examples: 'functions/site-attendances/examples.ts',
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
