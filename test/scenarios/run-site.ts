/**
 * `npm run scenario:site`: issue 22's walk-through against a running `npm start`: in the first demo
 * organisation, a worker is refused at a new site's gate, inducted, signs in, shows on site, and is signed
 * out automatically when the site closes, a minute or two later (`npm start`'s timer runs the schedule).
 */
import { randomBytes } from 'node:crypto';
import { credentials, firstOrganisationAdmin, http } from './local';
import { runSiteScenario } from './site';

const { org, adminToken } = await firstOrganisationAdmin();
const get = async (path: string) => {
  const res = await http.request('GET', path, { token: adminToken });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.text}`);
  return res.body as {
    data: { id: string; attributes: Record<string, unknown> }[] & { attributes: Record<string, unknown> };
  };
};
const [worker] = (await get(`/v3/orgs/${org.id}/people/users?page[limit]=1`)).data;
if (!worker) throw new Error(`${org.name} has no users: restart npm start for its demo data.`);
const { timezone } = (await get(`/v3/orgs/${org.id}/settings`)).data.attributes as { timezone: string };
// The site closes at the start of the minute after next, in the organisation's time zone.
const closesAt = new Date(Math.ceil((Date.now() + 60_000) / 60_000) * 60_000);
const closingTime = closesAt.toLocaleTimeString('en-GB', {
  timeZone: timezone,
  hour: '2-digit',
  minute: '2-digit',
});
process.stdout.write(`Site walk-through in ${org.name} (${org.id}) at ${credentials.base_url}\n`);
const result = await runSiteScenario(
  {
    http,
    orgId: org.id,
    adminToken,
    workerId: worker.id,
    suffix: randomBytes(3).toString('hex'),
    closingTime,
    closing: async (attendanceId) => {
      process.stdout.write(
        `  … waiting for closing time (${closingTime}, ${timezone}) and the schedule's next run\n`,
      );
      const deadline = closesAt.getTime() + 60_000;
      while (Date.now() < deadline) {
        const { data } = await get(`/v3/site-attendances/${attendanceId}`);
        if (data.attributes.signed_out_at) return;
        await new Promise((done) => setTimeout(done, 5_000));
      }
    },
  },
  (line) => process.stdout.write(`  ✓ ${line}\n`),
);
process.stdout.write(`Done. Attendance ${result.attendance}, award ${result.award}.\n`);
