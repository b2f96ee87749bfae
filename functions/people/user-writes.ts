/**
 * Changing a user: their profile (by themselves or an administrator), their job role (administrators
 * only) and, as an alias of the declared moves (`users.ts`), their status. A job role's count of holders
 * moves with it (deleting a role someone holds is refused: job-roles.ts).
 */
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { WriteOp, WriteRefused } from '#shared/data/transaction';
import {
  changedRecord,
  commitChecked,
  relationshipSchema,
  storedRelationships,
} from '#shared/engine/record-writes';
import { moveByPatch } from '#shared/engine/transition';
import { calendarDate, languageTag, line, requiredLine, timeZone } from '#shared/jsonapi/attribute-types';
import { ConflictError, ForbiddenError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { HOLDERS, holdersMove } from './job-roles';
import { USER_STATUSES } from './rules/user-status';
import { users } from './users';

const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** The spec's profile groups; each member may be sent alone, and null clears an optional one. */
const profile = z.lazy(() =>
  z.strictObject({
    work: z
      .strictObject({
        occupation: optional(line(200)),
        cscs: optional(line(50)),
        eusr: optional(line(50)),
        start_date: optional(calendarDate()),
      })
      .optional(),
    personal: z
      .strictObject({
        first_name: requiredLine(100).optional(),
        last_name: requiredLine(100).optional(),
        username: optional(line(100)),
        dob: optional(calendarDate()),
      })
      .optional(),
    contact: z.strictObject({ mobile: optional(line(40)), landline: optional(line(40)) }).optional(),
    address: z
      .strictObject({
        number: optional(line(20)),
        street: optional(line(200)),
        area: optional(line(200)),
        town: optional(line(200)),
        county: optional(line(200)),
        postcode: optional(line(20)),
        country_code: optional(
          z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code, such as GB'),
        ),
        // Three words joined by dots, with or without the leading `///` people write them with.
        three_word_address: optional(
          z
            .string()
            .max(100)
            .regex(
              /^(\/\/\/)?\p{L}+\.\p{L}+\.\p{L}+$/u,
              'must be three words joined by dots, such as ///filled.count.soap',
            ),
        ),
      })
      .optional(),
    settings: z
      .strictObject({ preferred_language: languageTag().optional(), timezone: timeZone().optional() })
      .optional(),
  }),
);

export const updateUserDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('users'),
      id: z.uuid(),
      attributes: z
        .strictObject({ status: z.enum(USER_STATUSES).optional(), profile: profile.optional() })
        .optional(),
      relationships: z
        .strictObject({ job_role: relationshipSchema(users, 'job_role').optional() })
        .optional(),
    }),
  }),
);

type Profile = Record<string, Record<string, unknown>>;

/** The stored profile with each group's sent members replaced. */
const mergedProfile = (stored: Profile, sent: Profile): Profile =>
  Object.fromEntries(
    [...new Set([...Object.keys(stored), ...Object.keys(sent)])].map((group) => [
      group,
      { ...stored[group], ...sent[group] },
    ]),
  );

/**
 * Applies a PATCH of a user by `caller`: one holding `users:manage` in the user's organisation changes
 * their profile and job role; without it (the route's `self` permission) only their own profile. A
 * `status` other than the user's moves them through the declared machine (`users.ts`: its permission, its
 * party rule and its event), with the rest of the PATCH in the same transaction.
 */
export const updateUser = async (
  scope: Scope,
  user: StoredResource,
  body: unknown,
  caller: Principal,
  now = new Date(),
): Promise<StoredResource> => {
  const { data } = parseDocument(updateUserDocument, body);
  assertSameId(data.id, user.id);
  const jobRole = data.relationships?.job_role;
  if (jobRole !== undefined && caller.permissions.get(user.org_id)?.has('users:manage') !== true)
    throw new ForbiddenError('Changing a user’s job role needs the users:manage permission.');
  const sentProfile = data.attributes?.profile as Profile | undefined;
  const rels = storedRelationships(data.relationships as never);
  const changes = {
    attributes: sentProfile && {
      profile: mergedProfile((user.attributes.profile ?? {}) as Profile, sentProfile),
    },
    rels,
  };
  const ops: WriteOp[] =
    jobRole === undefined
      ? []
      : holdersMove(user.org_id, user.rels.job_role, { ...user.rels, ...rels }.job_role);
  const onRefused = (error: WriteRefused, all: WriteOp[]): never => {
    const refused = error.op === undefined ? undefined : all[error.op];
    if (refused && 'keep' in refused && refused.keep.add?.[HOLDERS] === 1)
      throw new ValidationError({
        detail: 'No such job role in this organisation.',
        source: { pointer: '/data/relationships/job_role/data' },
      });
    throw new ConflictError('The user changed while this request was applied; read them again and retry.');
  };
  const status = data.attributes?.status;
  if (status !== undefined && status !== user.attributes.status)
    return moveByPatch(scope, users, user, status, {
      principal: caller,
      now,
      also: { changes, ops, onRefused },
    });
  const next = changedRecord(users, user, changes, now);
  const all: WriteOp[] = [{ replace: next, was: user }, ...ops];
  await commitChecked(scope, all, [], (error: WriteRefused) => onRefused(error, all));
  return next;
};
