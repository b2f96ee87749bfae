/**
 * What an area's bench seeds (`functions/<area>/bench-seeds.ts`) are written with: the step a seed is,
 * the context it reads ids from, and the words and helpers that make realistic, distinct records.
 * `seed-routes.ts` runs them; this module holds no machinery, so a seeds file imports nothing else.
 */
import { createHash } from 'node:crypto';

// biome-ignore lint/suspicious/noExplicitAny: the seeder reads arbitrary members of response documents
export type Doc = any;
export type Caller = 'admin' | 'pc' | 'bot';
export type Send = (as: Caller, method: string, path: string, body?: object, status?: number) => Promise<Doc>;

/** Ids by name (what the steps made, and the demo records found), the organisation and the callers. */
export interface SeedContext {
  org: string;
  ids: Record<string, string[]>;
  /** The signed-in admin user; the second user (the Principal Contractor); the service account. */
  me: string;
  pc: string;
  bot: string;
  /** Where a webhook the seeds subscribe is delivered: a receiver on loopback that answers 204. */
  hookUrl: string;
  send: Send;
}

/**
 * One kind of write, `count` times (30 by default): the route (its path's `{params}` from `params`,
 * `{org_id}` the organisation's unless given), the resource object it sends (`data`: its members; its
 * `type` is the route's resource type, or `type`) or a whole `body`, who sends it, and what a client does
 * next with the answer. The created ids go to `ids[into]` (by default the route's resource type), in order.
 */
export interface Step {
  route: string;
  count?: number;
  as?: Caller | ((i: number) => Caller);
  params?: (i: number) => Record<string, string>;
  data?: (i: number) => Record<string, unknown>;
  type?: string;
  body?: (i: number) => object;
  /** Answers other than a create's 201 (a proposed change and an action answer 200, a job 202). */
  status?: number;
  /** One request at a time: each write replaces a parent they share (a pack's hazards, a plan's risks). */
  serial?: boolean;
  into?: string;
  /** What a client does before the requests (uploads files declared earlier). */
  before?: () => Promise<void>;
  /** What a client does next with an answer (uploads the file it declared and completes it). */
  finish?: (answer: Doc, i: number) => Promise<void>;
}

/**
 * An area's bench seeds. The seeder runs every area's `first` steps (in the composition root's order of
 * the areas), then signs the integration in (its service account is the first one made); then every
 * area's `writes` groups by `at`, lowest first (a group reads only ids that groups with a lower `at`
 * made; equal `at`s run in the areas' order); then, once the jobs are finished and every event is handed
 * over, every area's `last` steps.
 */
export interface BenchSeeds {
  first?: Step[];
  writes?: { at: number; steps: (c: SeedContext) => Step[] }[];
  last?: Step[];
}

export const N = 30;
export const PARALLEL = 8;

// Words for realistic, distinct records: 30 Cumbrian towns (one per record), and shorter lists whose
// lengths are coprime, so that pairs of them do not repeat within 30.
// biome-ignore format: a word list
export const TOWNS = ['Kendal', 'Windermere', 'Ambleside', 'Penrith', 'Keswick', 'Ulverston', 'Sedbergh', 'Kirkby Lonsdale', 'Grange-over-Sands', 'Appleby', 'Cockermouth', 'Whitehaven', 'Workington', 'Barrow', 'Carlisle', 'Shap', 'Staveley', 'Coniston', 'Hawkshead', 'Milnthorpe', 'Arnside', 'Dalton', 'Millom', 'Egremont', 'Maryport', 'Wigton', 'Brampton', 'Alston', 'Kirkby Stephen', 'Orton'] as const;
// biome-ignore format: a word list
export const STREETS = ['High Street', 'Station Road', 'Mill Lane', 'Church Street', 'Market Place', 'Fell Road', 'Lake Road'] as const;
export const FIRST = ['Aled', 'Bryony', 'Chidi', 'Deborah', 'Euan', 'Fatima', 'Grant'] as const;
export const LAST = ['Hughes', 'Ibbotson', 'Jarvis', 'Khan', 'Lowther'] as const;
// biome-ignore format: a word list
export const WORK = ['Trunk main renewal', 'Reservoir outlet works', 'Sewer rehabilitation', 'Pumping station upgrade', 'Service pipe replacement', 'Bridge deck waterproofing', 'Storm overflow screening'] as const;
// biome-ignore format: a word list
export const OPERATIONS = ['Excavate and lay', 'Pressure test', 'Reinstate carriageway', 'Chlorinate and flush', 'Connect services'] as const;
// biome-ignore format: a table: title, severity
export const HAZARDS = [
  ['Excavation deeper than 1.2 m', 'high'], ['Live 11 kV cable in the footway', 'high'],
  ['Asbestos cement pipe offcuts', 'medium'], ['Confined space in the valve chamber', 'high'],
  ['Traffic on a 40 mph road', 'medium'], ['Overhead line across the access', 'high'],
  ['Contaminated ground near the old gasworks', 'medium'], ['Working next to open water', 'high'],
  ['Unstable spoil heap', 'low'], ['Public footpath through the compound', 'low'],
  ['Buried medium-pressure gas main', 'high'],
] as const;

export const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;
export const town = (i: number) => pick(TOWNS, i);
export const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
export const two = (i: number) => String(i + 1).padStart(2, '0');
/** A moment `i` steps of `days` after `from`, at a varying hour: dates spread over months. */
export const at = (i: number, days = 9, from = '2025-06-02T07:30:00Z') =>
  new Date(Date.parse(from) + (i * days * 24 + (i % 5) * 2) * 3_600_000).toISOString();
export const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');
export const one = (type: string, id: string) => ({ data: { type, id } });
export const many = (type: string, ids: string[]) => ({
  data: [...new Set(ids)].map((id) => ({ type, id })),
});
/** A file's text and what a client declares of it: type, size and SHA-256. */
export const declared = (text: string, content_type = 'text/plain') => ({
  content_type,
  size: Buffer.byteLength(text),
  checksum: sha256(text),
});

/** Runs `work` for 0…count-1, `limit` at a time. */
export const inParallel = async (count: number, limit: number, work: (i: number) => Promise<void>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
};

export class SeedError extends Error {}

/** The `i`-th id (round and round) made under `name`, or an error naming what was needed too early. */
export const idsOf =
  (c: SeedContext) =>
  (name: string, i = 0): string => {
    const list = c.ids[name];
    if (!list || list.length === 0) throw new SeedError(`no ${name} made before they were needed`);
    return pick(list, i);
  };

/** Uploads a file to a presigned URL (`meta.upload` of the answer that declared it), as a client does. */
export const upload = async (put: Doc, text: string) => {
  const res = await fetch(put.url, { method: put.method ?? 'PUT', headers: put.headers, body: text });
  if (res.status !== 200) throw new SeedError(`PUT ${put.url} answered ${res.status}: ${await res.text()}`);
};

/** Uploads the file, then completes it (`complete`: the completion's path). */
export const uploadThen = async (c: SeedContext, put: Doc, text: string, complete: string) => {
  await upload(put, text);
  await c.send('admin', 'POST', complete, {}, 200);
};
