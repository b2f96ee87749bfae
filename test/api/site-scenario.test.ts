/**
 * Issue 22's "done when", as an API test: a worker without the site induction is refused at the gate, is
 * inducted (the award approved), signs in, appears in "on site now", and is signed out automatically at
 * closing time, the schedule's clock moved to it by the test. The same walk-through runs against `npm
 * start` as `npm run scenario:site`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runDue } from '#functions/due-work/run';
import { nextClosing } from '#functions/site-attendances/rules/site-day';
import { runSiteScenario } from '../scenarios/site';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Site Scenario Org', 1);
});
afterAll(() => api.close());

it('refused at the gate, inducted, signed in, on site now, signed out automatically at closing time', async () => {
  const steps: string[] = [];
  const result = await runSiteScenario(
    {
      http: api,
      orgId: tenant.org.id,
      adminToken: await api.token(tenant.admin),
      workerId: tenant.people[0]?.id ?? '',
      suffix: 'test',
      closingTime: '17:30',
      closing: async (attendanceId) => {
        const read = await api.get(`/v3/site-attendances/${attendanceId}`, await api.token(tenant.viewer));
        const closing = nextClosing(
          Date.parse(read.body.data.attributes.signed_in_at),
          '17:30',
          'Europe/London',
        );
        await runDue(closing, { orgId: tenant.org.id });
      },
    },
    (line) => steps.push(line),
  );
  expect(steps).toHaveLength(6);
  expect(result.attendance).toBeTruthy();
});
