/**
 * Cost sheets on a node of the work hierarchy, and cost lines on a sheet. A line takes a snapshot of the
 * rate in force when it is written (cost, charge, category, currency), so revising a rate later never
 * changes it. Each line's amounts are added to what its node keeps (node-totals.ts) in the transaction
 * that writes it, so a roll-up reads nodes, never lines.
 */
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { getInScope } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import { byPrincipal, changedRecord, newRecord, replaceRecord } from '#shared/engine/record-writes';
import { declaredType } from '#shared/engine/resource-definition';
import { freeText, MONEY_MAX, requiredLine, timestamp } from '#shared/jsonapi/attribute-types';
import { ConflictError, NotFoundError, ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { costLines, costSheets, rateCodes } from './definitions';
import { lineAdded, sheetAdded } from './node-totals';
import { rateInForce } from './register';
import { costCentreRelationships } from './rules/cost-centres';
import { bucketOf, type Category, lineSums, type SheetStatus } from './rules/roll-up';

const SHEET_STATUS = z.lazy(() => z.enum(['quoted', 'approved', 'completed']));
const nodeRelationship = (type: string) =>
  z.strictObject({ data: z.strictObject({ type: z.literal(type), id: z.uuid() }) }).optional();

export const createSheetDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('cost-sheets'),
      attributes: z.strictObject({
        name: requiredLine(200),
        status: SHEET_STATUS.default('quoted'),
      }),
      relationships: z
        .strictObject(
          Object.fromEntries(
            Object.entries(costCentreRelationships).map(([name, r]) => [name, nodeRelationship(r.type)]),
          ),
        )
        .refine(
          (r) => Object.values(r).filter(Boolean).length === 1,
          'Name exactly one cost centre: scheme_contract, scheme, work_order or operation.',
        ),
    }),
  }),
);

export const updateSheetDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('cost-sheets'),
      id: z.uuid(),
      // Its status moves by its declared transitions (POST …/approve, …/complete, …/reopen, …/requote).
      attributes: z.strictObject({ name: requiredLine(200).optional() }),
    }),
  }),
);

const QUANTITY_MIN = 1e-6;
const QUANTITY_MAX = 1e6;

export const createLineDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('cost-lines'),
      attributes: z.strictObject({
        kind: z.enum(['actual', 'estimate']).default('actual'),
        description: freeText(500).optional(),
        /** A millionth of a unit at the least: smaller magnitudes are not amounts anyone bills. */
        quantity: z.number().min(QUANTITY_MIN).max(QUANTITY_MAX),
        /** When the work was done: the rate in force then is used. */
        at: timestamp.optional(),
      }),
      relationships: z.strictObject({
        rate_code: z.strictObject({ data: z.strictObject({ type: z.literal('rate-codes'), id: z.uuid() }) }),
      }),
    }),
  }),
);

export const createSheet = async (
  scope: Scope,
  orgId: string,
  body: unknown,
  principal: Principal | null,
): Promise<StoredResource> => {
  const { data } = parseDocument(createSheetDocument, body);
  const [relationship, named] = Object.entries(data.relationships).find(([, r]) => r) ?? [];
  const definition = declaredType(named?.data.type ?? '');
  const node =
    relationship && named && definition ? await getInScope(scope, definition.keyOf, named.data.id) : null;
  if (!relationship || !node || node.org_id !== orgId) {
    throw new ValidationError({
      detail: 'No such cost centre in this organisation.',
      source: { pointer: `/data/relationships/${relationship}/data` },
    });
  }
  const sheet = newRecord(costSheets, orgId, {
    attributes: data.attributes,
    rels: { [relationship]: node.id, ...byPrincipal('created_by', principal) },
  });
  await commit(scope, [{ create: sheet }, sheetAdded({ pk: node.pk, sk: node.sk })]).catch(refused);
  return sheet;
};

/** Renames a sheet; its status is its transitions' (a PATCH naming it is 400 before this runs: `stateNotPatched`). */
export const updateSheet = async (scope: Scope, sheet: StoredResource, body: unknown) => {
  const { data } = parseDocument(updateSheetDocument, body);
  assertSameId(data.id, sheet.id);
  const next = changedRecord(costSheets, sheet, { attributes: data.attributes });
  return replaceRecord(scope, costSheets, { replace: next, was: sheet }, {}, [], refused);
};

export const addLine = async (
  scope: Scope,
  sheet: StoredResource,
  body: unknown,
  now = new Date(),
): Promise<StoredResource> => {
  const { data } = parseDocument(createLineDocument, body);
  const code = await getInScope(scope, rateCodes.keyOf, data.relationships.rate_code.data.id);
  if (!code || code.org_id !== sheet.org_id) {
    throw new ValidationError({
      detail: 'No such rate code in this organisation.',
      source: { pointer: '/data/relationships/rate_code/data' },
    });
  }
  const at = data.attributes.at ?? now.toISOString();
  const rate = await rateInForce(scope, code, at);
  if (!rate)
    throw new NotFoundError(`Rate code ${String(code.attributes.code)} has no rate in force at ${at}.`);
  const { quantity } = data.attributes;
  const cost = Math.round(quantity * rate.cost.amount);
  const charge = Math.round(quantity * rate.charge.amount);
  // Each line's amounts are bounded like a rate's, so sums of lines stay exact (see the roll-up).
  if (Math.max(cost, charge) > MONEY_MAX) {
    throw new ValidationError({
      detail: `quantity × the rate in force is ${Math.max(cost, charge)} minor units; a line holds at most ${MONEY_MAX}.`,
      source: { pointer: '/data/attributes/quantity' },
    });
  }
  const line = newRecord(
    costLines,
    sheet.org_id,
    {
      attributes: {
        kind: data.attributes.kind,
        ...(data.attributes.description && { description: data.attributes.description }),
        quantity,
        at,
        snapshot: {
          rate_code: code.attributes.code,
          rate_version: rate.id,
          category: code.attributes.category,
          currency: rate.cost.currency,
          unit_cost: rate.cost.amount,
          unit_charge: rate.charge.amount,
        },
        cost: { amount: cost, currency: rate.cost.currency },
        charge: { amount: charge, currency: rate.charge.currency },
      },
      rels: { cost_sheet: sheet.id, rate_code: code.id },
    },
    now,
  );
  const sums = lineSums({ category: code.attributes.category as Category, cost, charge });
  const bucket = bucketOf({
    kind: data.attributes.kind,
    sheetStatus: sheet.attributes.status as SheetStatus,
  });
  await commit(scope, [
    { create: line },
    ...lineAdded(sheet, { bucket, sums, currency: rate.cost.currency }),
  ]).catch(refused);
  return line;
};

/**
 * A write refused because the sheet or its node changed meanwhile (a status, a deletion of the node: its
 * costs are kept on it, so nothing is costed to a deleted node until it is restored).
 */
const refused = (error: unknown): never => {
  if (error instanceof WriteRefused && error.code === 'stale')
    throw new ConflictError(
      'The cost sheet or its cost centre changed (or the cost centre was deleted) while this request was applied; read them again and retry.',
    );
  throw error;
};
