/** A body for each of the site-attendances area's write routes (null: it takes none); see shared/engine/examples.ts. */
import { one, type RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  createSiteSetting: (i) => ({
    data: {
      type: 'site-settings',
      attributes: { closing_time: '18:00', missing_qualification: 'refuse' },
      relationships: {
        location: one('locations', i.location_id),
        required_specification: one('qualification-specifications', i.qualification_specification_id),
      },
    },
  }),
  updateSiteSetting: (i) => ({
    data: { type: 'site-settings', id: i.site_setting_id, attributes: { closing_time: '19:00' } },
  }),
  createSiteAttendance: (i) => ({
    data: {
      type: 'site-attendances',
      attributes: { method_in: 'app', employer: 'Acme Civils' },
      relationships: { person: one('users', i.person), location: one('locations', i.location_id) },
    },
  }),
  updateSiteAttendance: (i, now) => ({
    data: {
      type: 'site-attendances',
      id: i.site_attendance_id,
      attributes: {
        signed_in_at: new Date(now.getTime() - 3_600_000).toISOString(),
        correction_reason: 'Signed in at the gate hut while the kiosk was down.',
      },
    },
  }),
  signOutSiteAttendance: null,
};
