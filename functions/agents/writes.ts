/**
 * Agents are plain records; a briefing is created for an agent (spec: POST /v3/agents/{agent_id}/briefings)
 * with its generated result, or without one while it is generated and given it later by PATCH.
 */
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { fileChild } from '#shared/engine/children';
import { changedRecord, commitChecked, newRecord } from '#shared/engine/record-writes';
import { freeText, integer, line, requiredLine, requiredText } from '#shared/jsonapi/attribute-types';
import { ConflictError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { agents, briefings } from './definitions';
import { type briefingStatuses, sectionSeverity, sectionType } from './rules/briefing-sections';

const count = z.lazy(() => integer(0, 10_000_000));
const result = {
  summary: requiredText(20_000),
  sections: z
    .array(
      z.strictObject({
        title: requiredLine(200),
        items: z.array(z.record(line(200), z.unknown())).max(100),
        reasoning: freeText(10_000),
      }),
    )
    .max(50),
  reasoning: z.record(line(200), z.unknown()),
  model_used: requiredLine(100),
  token_usage: z.strictObject({ prompt_tokens: count, completion_tokens: count }),
};

const resultKeys = Object.keys(result) as (keyof typeof result)[];

export const createBriefingDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('briefings'),
      attributes: z.strictObject(result).partial().optional(),
    }),
  }),
);

export const updateBriefingDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('briefings'),
      id: z.uuid(),
      attributes: z
        .strictObject({
          ...result,
          status: z.enum(['failed', 'archived']),
          failure_reason: freeText(2000).optional(),
        })
        .partial(),
    }),
  }),
);

type Result = z.infer<z.ZodObject<typeof result>>;

/** The whole generated result, or none of it (a briefing still generating); a part is 400 naming what is missing. */
const resultOf = (attributes: Partial<Result> & { status?: string }): Result | null => {
  const sent = resultKeys.filter((k) => attributes[k] !== undefined);
  if (sent.length === 0) return null;
  const missing = resultKeys.filter((k) => attributes[k] === undefined);
  const problems = [
    ...missing.map((k) => `${k} is required with the rest of the result.`),
    ...(attributes.status ? ['status is not sent with a result (it becomes ready).'] : []),
  ];
  if (problems.length > 0) {
    throw new ValidationError({
      problems: problems.map(
        (detail) => new ValidationError({ detail, source: { pointer: '/data/attributes' } }),
      ),
    });
  }
  return attributes as Result;
};

const withResult = (r: Result, now: Date) => ({
  attributes: {
    ...r,
    status: 'ready',
    sections: r.sections.map((s) => ({
      ...s,
      type: sectionType(s.title),
      severity: sectionSeverity(s.items),
    })),
  },
  meta: { generated_at: now.toISOString() },
});

export const createBriefing = async (
  scope: Scope,
  agent: StoredResource,
  body: unknown,
  now = new Date(),
) => {
  const { data } = parseDocument(createBriefingDocument, body);
  const generated = resultOf(data.attributes ?? {});
  const changes = generated
    ? withResult(generated, now)
    : { attributes: { status: 'generating' }, meta: { generated_at: null } };
  const record = newRecord(briefings, agent.org_id, { ...changes, rels: { agent: agent.id } }, now);
  const filed = fileChild(agent, record);
  await commitChecked(scope, [{ create: filed }, { check: agents.keyOf(agent.org_id, agent.id) }], []);
  return filed;
};

/** generating → ready (with the result) or failed; ready or failed → archived. Anything else is 409. */
export const updateBriefing = async (
  scope: Scope,
  briefing: StoredResource,
  body: unknown,
  _principal?: Principal | null,
  now = new Date(),
) => {
  const { data } = parseDocument(updateBriefingDocument, body);
  assertSameId(data.id, briefing.id);
  const generated = resultOf(data.attributes);
  const from = briefing.attributes.status as (typeof briefingStatuses)[number];
  const to = generated ? 'ready' : data.attributes.status;
  if (!to) {
    throw new ValidationError({
      detail: 'Send the result, or status failed or archived.',
      source: { pointer: '/data/attributes' },
    });
  }
  const allowed =
    (from === 'generating' && (to === 'ready' || to === 'failed')) ||
    (from !== 'archived' && from !== 'generating' && to === 'archived');
  if (!allowed)
    throw new ConflictError(`A ${from} briefing cannot become ${to}.`, { pointer: '/data/attributes' });
  const changes =
    'summary' in data.attributes
      ? withResult(data.attributes as Result, now)
      : { attributes: data.attributes };
  const next = changedRecord(briefings, briefing, changes, now);
  await commitChecked(scope, [{ replace: next, was: briefing }], []);
  return next;
};
