/**
 * Issue 22's walk-through, through the public API only: a site (a location) with its own induction and a
 * closing time; a worker without the induction is refused at the gate; they are inducted (an award
 * recorded and approved); they sign in, appear in "on site now" and on the roll call; at closing time they
 * are signed out automatically (`method_out: auto`), so the attendance has hours.
 *
 * The API tests run it against the local adapter, moving the schedule's clock to the closing time; `npm
 * run scenario:site` runs it against `npm start`, whose timer runs the schedule, with the site closing a
 * minute or two after the sign-in. Every step checks its answer.
 */
import assert from 'node:assert/strict';
import type { Http } from './cdm';

export interface SiteScenario {
  http: Http;
  orgId: string;
  /** An access token of the organisation's administrator (a client holding the admin role). */
  adminToken: string;
  /** The worker: a user of the organisation. */
  workerId: string;
  /** A unique word for this run's names. */
  suffix: string;
  /** The site's closing time, HH:MM in the organisation's time zone. */
  closingTime: string;
  /** Brings the closing time about: moves the schedule's clock (tests) or waits for it (`npm start`). */
  closing(attendanceId: string): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: the scenario reads arbitrary members of response documents
type Doc = any;

export const runSiteScenario = async (s: SiteScenario, log: (line: string) => void = () => {}) => {
  const call = async (
    method: string,
    path: string,
    body: object | undefined,
    expected: number,
  ): Promise<Doc> => {
    const res = await s.http.request(method, path, { token: s.adminToken, ...(body && { body }) });
    assert.equal(res.status, expected, `${method} ${path}: ${res.text}`);
    return res.body;
  };
  const org = `/v3/orgs/${s.orgId}`;
  const site = (
    await call(
      'POST',
      `${org}/governance/locations`,
      {
        data: { type: 'locations', attributes: { name: `Reservoir outfall ${s.suffix}` } },
      },
      201,
    )
  ).data.id as string;
  const at = { location: { data: { type: 'locations', id: site } } };
  const induction = (
    await call(
      'POST',
      `${org}/qualifications/types`,
      {
        data: {
          type: 'qualification-types',
          attributes: {
            kind: 'induction',
            name: `Outfall induction ${s.suffix}`,
            has_expiry: true,
            validity_period: 'P1Y',
          },
          relationships: { locations: { data: [{ type: 'locations', id: site }] } },
        },
      },
      201,
    )
  ).data.id as string;
  await call(
    'POST',
    `${org}/site-settings`,
    {
      data: { type: 'site-settings', attributes: { closing_time: s.closingTime }, relationships: at },
    },
    201,
  );
  log(`site ${site}: its own induction, closing at ${s.closingTime}`);

  const signIn = {
    data: {
      type: 'site-attendances',
      attributes: { method_in: 'kiosk' },
      relationships: { ...at, person: { data: { type: 'users', id: s.workerId } } },
    },
  };
  const refused = await call('POST', `${org}/site-attendances`, signIn, 409);
  assert.match(refused.errors[0].detail, new RegExp(induction));
  log('a worker without the site induction is refused at the gate (409 naming it)');

  const award = (
    await call(
      'POST',
      `${org}/qualifications/awards`,
      {
        data: {
          type: 'qualification-awards',
          attributes: { issued_at: new Date().toISOString().slice(0, 10) },
          relationships: {
            person: { data: { type: 'users', id: s.workerId } },
            qualification_type: { data: { type: 'qualification-types', id: induction } },
          },
        },
      },
      201,
    )
  ).data;
  assert.equal(award.attributes.status, 'pending_approval');
  const approved = (await call('POST', `/v3/qualification-awards/${award.id}/approve`, undefined, 200)).data;
  assert.equal(approved.attributes.status, 'valid');
  log(`inducted: award ${award.id} approved, valid until ${approved.attributes.expires_at}`);

  const attendance = (await call('POST', `${org}/site-attendances`, signIn, 201)).data;
  assert.equal(attendance.attributes.checks.outcome, 'passed');
  log(`signed in at ${attendance.attributes.signed_in_at}: the gate's checks passed`);

  const onSite = `${org}/site-attendances?filter[on_site]=true&filter[location]=${site}`;
  const now = await call('GET', onSite, undefined, 200);
  assert.deepEqual(
    now.data.map((a: Doc) => a.id),
    [attendance.id],
  );
  const rollCall = (
    await call(
      'POST',
      `${org}/exports`,
      {
        data: {
          type: 'exports',
          attributes: {
            subject_type: 'site-attendances',
            format: 'csv',
            filters: { on_site: 'true', location: site },
          },
        },
      },
      201,
    )
  ).data;
  assert.equal(rollCall.attributes.row_count, 1);
  log('on site now, and on the roll call (a CSV export of one row)');

  await s.closing(attendance.id);
  const ended = (await call('GET', `/v3/site-attendances/${attendance.id}`, undefined, 200)).data;
  assert.equal(ended.attributes.method_out, 'auto');
  assert.equal((await call('GET', onSite, undefined, 200)).data.length, 0);
  const hours =
    (Date.parse(ended.attributes.signed_out_at) - Date.parse(ended.attributes.signed_in_at)) / 3_600_000;
  log(
    `signed out automatically at closing time, ${ended.attributes.signed_out_at} (${hours.toFixed(2)} h on site)`,
  );
  return { site, induction, award: award.id, attendance: attendance.id };
};
