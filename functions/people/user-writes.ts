/**
 * Changing a user: their profile (by themselves or an administrator), their status and their job role
 * (administrators only). A change of status also enables or disables the user's principal, and leaving
 * `active` ends every session they hold, in the same transaction as the record, so the next call with one
 * of those sessions is refused. A job role's count of holders moves with it (deleting a role someone
 * holds is refused: job-roles.ts).
 */
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { principalStatusWrite } from '#shared/data/principals';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { WriteOp, WriteRefused } from '#shared/data/transaction';
import {
  changedRecord,
  commitChecked,
  relationshipSchema,
  storedRelationships,
} from '#shared/engine/record-writes';
import { calendarDate, languageTag, line, requiredLine, timeZone } from '#shared/jsonapi/attribute-types';
import { ConflictError, ForbiddenError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { HOLDERS, holdersMove } from './job-roles';
import { mayUseSessions, statusAction, USER_STATUSES, type UserStatus } from './rules/user-status';
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

export const statusOf = (user: StoredResource): UserStatus =>
  (user.attributes.status as UserStatus) ?? 'active';

/**
 * Applies a PATCH of a user by `caller`: one holding `users:manage` in the user's organisation changes
 * anything but their own status; without it (the route's `self` permission) only their own profile.
 */
export const updateUser = async (
  scope: Scope,
  user: StoredResource,
  body: unknown,
  caller: Principal,
  now = new Date(),
): Promise<StoredResource> => {
  const administers = caller.permissions.get(user.org_id)?.has('users:manage') === true;
  const self = caller.id === user.id;
  const { data } = parseDocument(updateUserDocument, body);
  assertSameId(data.id, user.id);
  const status = data.attributes?.status;
  const jobRole = data.relationships?.job_role;
  if (!administers && (status !== undefined || jobRole !== undefined))
    throw new ForbiddenError('Changing a user’s status or job role needs the users:manage permission.');
  const from = statusOf(user);
  const action = status === undefined || status === from ? null : statusAction(from, status);
  if (status !== undefined && status !== from) {
    if (self) throw new ForbiddenError('You cannot change your own status.');
    if (!action)
      throw new ConflictError(`A ${from} user cannot become ${status}.`, {
        pointer: '/data/attributes/status',
      });
  }
  const sentProfile = data.attributes?.profile as Profile | undefined;
  const next = changedRecord(
    users,
    user,
    {
      attributes: {
        ...(sentProfile && {
          profile: mergedProfile((user.attributes.profile ?? {}) as Profile, sentProfile),
        }),
        ...(action && { status }),
      },
      rels: storedRelationships(data.relationships as never),
    },
    now,
  );
  const ops: WriteOp[] = [
    { replace: next, ...(action && { as: action }) },
    ...(action && status
      ? [
          {
            item: principalStatusWrite(
              user.id,
              mayUseSessions(status),
              mayUseSessions(status) ? undefined : now.toISOString(),
            ),
          },
        ]
      : []),
    ...(jobRole === undefined ? [] : holdersMove(user.org_id, user.rels.job_role, next.rels.job_role)),
  ];
  await commitChecked(scope, ops, [], (error: WriteRefused) => {
    const refused = error.op === undefined ? undefined : ops[error.op];
    if (refused && 'keep' in refused && refused.keep.add?.[HOLDERS] === 1)
      throw new ValidationError({
        detail: 'No such job role in this organisation.',
        source: { pointer: '/data/relationships/job_role/data' },
      });
    throw new ConflictError('The user changed while this request was applied; read them again and retry.');
  });
  return next;
};
