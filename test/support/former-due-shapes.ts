/**
 * The due entries' shapes before the one due index (issue 40, item 6), as the code at c3f6a77 wrote them
 * (`shared/data/jobs.ts` `due`, `shared/data/webhook-due.ts` `dueKeys`, `shared/data/schedules.ts`
 * `scheduleEntry`), kept here so the carry-over's tests write exactly what a deployed table holds.
 */
const SHARDS = 4;
const shardOf = (id: string) => Number.parseInt(id.slice(-1), 16) % SHARDS;

/** A job state's index keys while unfinished, due for the sweeper when its lease runs out. */
export const formerJobDueKeys = (jobId: string, leaseUntil: number) => ({
  gsi1pk: `JOBS-DUE#${Number.parseInt(jobId.slice(-1), 16) % SHARDS}`,
  gsi1sk: `${new Date(leaseUntil).toISOString()}#${jobId}`,
});

/** A webhook delivery's index keys while an attempt is due. */
export const formerDeliveryDueKeys = (id: string, at: number) => ({
  gsi1pk: `WEBHOOK-DUE#${shardOf(id)}`,
  gsi1sk: `${new Date(at).toISOString()}#${id}`,
});

/** A schedule entry item (an attendance's sign-out at closing time, an award's next expiry warning). */
export const formerScheduleEntry = (
  kind: string,
  orgId: string,
  id: string,
  at: number,
  data?: Record<string, string | number>,
) => {
  const due = new Date(at).toISOString();
  return {
    pk: `SCHEDULE#${shardOf(id)}`,
    sk: `${due}#${kind}#${id}`,
    kind,
    org_id: orgId,
    id,
    due,
    ...(data && { data }),
  };
};
