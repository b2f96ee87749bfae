/**
 * The cost register: rate codes (unique `code` per organisation) with time-versioned rates. Versions sit
 * in the code's own partition, sorted by `valid_from`, so the version in force at a date is one Query
 * (`sk <= date`, newest first, `Limit 1`), never a read of every version. Money is integer minor units.
 */

import * as z from 'zod';
import { declareAccessPatterns, keyFrom, partitionFrom } from '#shared/data/access-patterns';
import { uuidv7 } from '#shared/data/ids';
import { queryItems } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import { inScope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { tenantPattern } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { routePath } from '#shared/http/links';
import { minorUnits, timestamp } from '#shared/jsonapi/attribute-types';
import type { CollectionOptions } from '#shared/jsonapi/collection-query';
import { ConflictError, NotFoundError, ValidationError } from '#shared/jsonapi/errors';
import { parseDocument } from '#shared/jsonapi/request-document';

const money = z.lazy(() =>
  z.strictObject({
    amount: minorUnits(),
    currency: z.string().regex(/^[A-Z]{3}$/),
  }),
);

export const rateVersionDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('rate-code-versions'),
      attributes: z
        .strictObject({
          valid_from: timestamp,
          valid_to: timestamp.nullable().optional(),
          cost: money,
          charge: money,
        })
        .refine((a) => a.cost.currency === a.charge.currency, {
          message: 'cost and charge share one currency',
          path: ['charge', 'currency'],
        }),
    }),
  }),
);

export interface RateVersion {
  id: string;
  org_id: string;
  rate_code_id: string;
  valid_from: string;
  valid_to: string | null;
  cost: { amount: number; currency: string };
  charge: { amount: number; currency: string };
}

const keys = /* @__PURE__ */ declareAccessPatterns('costs/register', {
  version: {
    ...tenantPattern('rate-code-versions#{code_id}', '{valid_from}#{id}'),
    about: "a rate code's version in force from a date",
  },
});
const versionPartition = (orgId: string, codeId: string) =>
  partitionFrom(keys.version, { org_id: orgId, code_id: codeId });

/**
 * The code's versions valid from `at` or before, newest first; without `at`, all of them (the partition
 * holds nothing else, so no sentinel stands in for "the end of time").
 */
const versionsUpTo = (scope: Scope, code: StoredResource, at: string | undefined, limit?: number) =>
  inScope(scope, code.org_id)
    ? queryItems<RateVersion>(
        {
          KeyConditionExpression: at === undefined ? 'pk = :pk' : 'pk = :pk AND sk <= :at',
          ExpressionAttributeValues: {
            ':pk': versionPartition(code.org_id, code.id),
            ...(at !== undefined && { ':at': `${at}#~` }),
          },
          ScanIndexForward: false,
          ...(limit !== undefined && { Limit: limit }),
        },
        limit,
      )
    : Promise.resolve([]);

/** The version in force at `at` (ISO time), or null: one Query of at most one item. */
export const rateInForce = async (
  scope: Scope,
  code: StoredResource,
  at: string,
): Promise<RateVersion | null> => {
  const [latest] = await versionsUpTo(scope, code, at, 1);
  return latest && (latest.valid_to === null || at < latest.valid_to) ? latest : null;
};

export const listRateVersions = (scope: Scope, code: StoredResource) => versionsUpTo(scope, code, undefined);

/** One version of the code, or 404: versions are keyed by date, so this reads the code's (few) versions. */
export const readRateVersion = async (scope: Scope, code: StoredResource, id: string) => {
  const version = (await listRateVersions(scope, code)).find((v) => v.id === id);
  if (!version) throw new NotFoundError(`No rate-code-versions with id ${id} on this rate code.`);
  return version;
};

/** The versions collection's query features, over the resource objects `versionResource` builds. */
export const rateVersionOptions = {
  filters: { id: { kind: 'eq', path: 'id' } },
  sorts: { valid_from: { path: 'attributes.valid_from' } },
  defaultSort: '-valid_from',
  includes: [],
} as const satisfies CollectionOptions;

/** Adds a version; versions are appended in time order, so revising a rate never rewrites the past. */
export const addRateVersion = async (
  scope: Scope,
  code: StoredResource,
  body: unknown,
): Promise<RateVersion> => {
  const { data } = parseDocument(rateVersionDocument, body);
  const validFrom = data.attributes.valid_from;
  const validTo = data.attributes.valid_to ?? null;
  if (validTo !== null && validTo <= validFrom) {
    throw new ValidationError({
      detail: 'valid_to must be after valid_from.',
      source: { pointer: '/data/attributes/valid_to' },
    });
  }
  const [latest] = await versionsUpTo(scope, code, undefined, 1);
  if (latest && latest.valid_from >= validFrom) {
    throw new ConflictError(
      `A version from ${latest.valid_from} exists: new versions start after the latest one.`,
    );
  }
  const version: RateVersion = {
    id: uuidv7(),
    org_id: code.org_id,
    rate_code_id: code.id,
    valid_from: validFrom,
    valid_to: validTo,
    cost: data.attributes.cost,
    charge: data.attributes.charge,
  };
  await commit(scope, [
    {
      put: {
        ...keyFrom(keys.version, {
          org_id: code.org_id,
          code_id: code.id,
          valid_from: validFrom,
          id: version.id,
        }),
        ...version,
      },
    },
    // Versions are kept beside their code, not as records: the code's event carries the new version.
    {
      event: {
        subject: code,
        action: 'version-added',
        data: versionResource(code, version),
      },
    },
  ]);
  return version;
};

/** A version as the API shows it; with its link when the answer says where the API is reached. */
export const versionResource = (code: StoredResource, v: RateVersion, baseUrl?: string) => ({
  type: 'rate-code-versions',
  id: v.id,
  attributes: { valid_from: v.valid_from, valid_to: v.valid_to, cost: v.cost, charge: v.charge },
  meta: {},
  relationships: { rate_code: { data: { type: 'rate-codes', id: code.id } } },
  ...(baseUrl !== undefined && {
    links: {
      self: `${baseUrl}${routePath('getRateCodeVersion', { org_id: code.org_id, rate_code_id: code.id, rate_code_version_id: v.id })}`,
    },
  }),
});
