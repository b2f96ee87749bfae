/**
 * DynamoDB's hard limits, checked before a request leaves: a value too large to store is the client's
 * 4xx, never the service's 500. The schema types at the edge keep ordinary values far below these; this
 * is the backstop for what adds up (a record grown by many writes, free-form members, derived keys).
 *
 * One SDK middleware on the table's client sees every request after marshalling, in DynamoDB's own
 * terms, whichever module sent it: items written (size, key lengths, nesting, number range), keys read
 * or written, and the values of a Query's key condition. A key longer than DynamoDB allows can name no
 * item, so it is refused like any other invalid value. Item sizes follow AWS's published rules.
 */
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { tableDefinition } from './table-definition';

export const ITEM_MAX_BYTES = 400 * 1024;
export const PARTITION_KEY_MAX_BYTES = 2048;
export const SORT_KEY_MAX_BYTES = 1024;
/** Levels of maps and lists DynamoDB nests. */
export const NESTING_MAX = 32;
/** A TransactWriteItems request's items together. */
export const TRANSACTION_MAX_BYTES = 4 * 1024 * 1024;
/** DynamoDB numbers: magnitudes from 1E-130 to 9.99…E+125 (below 1E+126), 38 significant digits. */
const NUMBER_BEYOND = 1e126;
const NUMBER_MIN = 1e-130;

export type StorageLimit = 'item' | 'key' | 'number' | 'nesting';

/** A request the table would refuse for its size or shape: the client's value, not the service, is at fault. */
export class StorageLimitExceeded extends Error {
  constructor(
    readonly limit: StorageLimit,
    message: string,
  ) {
    super(message);
    this.name = 'StorageLimitExceeded';
  }
}

const partitionKeys = new Set<string>([
  tableDefinition.partitionKey,
  ...tableDefinition.globalIndexes.map((g) => g.partitionKey),
]);
const sortKeys = new Set<string>([
  tableDefinition.sortKey,
  ...tableDefinition.localIndexes.map((l) => l.sortKey),
  ...tableDefinition.globalIndexes.map((g) => g.sortKey),
]);

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

const numberSize = (digits: string): number => {
  const significant = digits.replace(/e.*$/i, '').replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.min(significant.length, 38) / 2) + 1;
};

const checkNumber = (digits: string) => {
  const magnitude = Math.abs(Number(digits));
  if (magnitude >= NUMBER_BEYOND || (magnitude !== 0 && magnitude < NUMBER_MIN)) {
    throw new StorageLimitExceeded('number', `The number ${digits} is outside the range the table stores.`);
  }
};

/** Bytes of one value by AWS's rules: UTF-8 strings, numbers by digits, 3 bytes per map or list plus 1 per element. */
const valueSize = (value: AttributeValue, depth: number): number => {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) {
    checkNumber(value.N);
    return numberSize(value.N);
  }
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS) return value.SS.reduce((sum, s) => sum + utf8(s), 0);
  if (value.NS) {
    for (const n of value.NS) checkNumber(n);
    return value.NS.reduce((sum, n) => sum + numberSize(n), 0);
  }
  if (value.BS) return value.BS.reduce((sum, b) => sum + b.byteLength, 0);
  if (value.L || value.M) {
    if (depth >= NESTING_MAX)
      throw new StorageLimitExceeded('nesting', `The record nests deeper than ${NESTING_MAX} levels.`);
    const elements = value.L
      ? value.L.map((v) => valueSize(v, depth + 1))
      : mapSizes(value.M ?? {}, depth + 1);
    return 3 + elements.reduce((sum, size) => sum + size + 1, 0);
  }
  return 0;
};

const mapSizes = (map: Record<string, AttributeValue>, depth: number) =>
  Object.entries(map).map(([name, value]) => utf8(name) + valueSize(value, depth));

const keyBytes = (value: AttributeValue | undefined) =>
  value?.S !== undefined ? utf8(value.S) : value?.B !== undefined ? value.B.byteLength : 0;

const checkKeyValue = (attribute: string, value: AttributeValue | undefined) => {
  const max = partitionKeys.has(attribute)
    ? PARTITION_KEY_MAX_BYTES
    : sortKeys.has(attribute)
      ? SORT_KEY_MAX_BYTES
      : null;
  if (max === null || value === undefined) return;
  const bytes = keyBytes(value);
  if (bytes > max) {
    throw new StorageLimitExceeded(
      'key',
      `A value of ${bytes} bytes cannot be part of a key (at most ${max} bytes); nothing is stored under it.`,
    );
  }
  if (value.S === '') throw new StorageLimitExceeded('key', 'An empty value cannot be part of a key.');
};

const checkKey = (key: Record<string, AttributeValue> | undefined) => {
  for (const [attribute, value] of Object.entries(key ?? {})) checkKeyValue(attribute, value);
};

/** Checks an item to be written and answers its size in bytes. */
export const checkItem = (item: Record<string, AttributeValue> | undefined): number => {
  if (!item) return 0;
  checkKey(item);
  const size = mapSizes(item, 0).reduce((sum, s) => sum + s, 0);
  if (size > ITEM_MAX_BYTES) {
    throw new StorageLimitExceeded(
      'item',
      `The record would take ${size} bytes; the table stores at most ${ITEM_MAX_BYTES} bytes per record.`,
    );
  }
  return size;
};

const CONDITION =
  /(#?\w+)\s*(?:=|<=|>=|<|>)\s*(:\w+)|begins_with\s*\(\s*(#?\w+)\s*,\s*(:\w+)\s*\)|(#?\w+)\s+BETWEEN\s+(:\w+)\s+AND\s+(:\w+)/gi;

/** The key attributes a Query's key condition compares, with the values it compares them to. */
const checkKeyCondition = (
  expression: string,
  names: Record<string, string> = {},
  values: Record<string, AttributeValue> = {},
) => {
  for (const m of expression.matchAll(CONDITION)) {
    const [, a1, v1, a2, v2, a3, v3, v4] = m;
    const name = a1 ?? a2 ?? a3 ?? '';
    const attribute = names[name] ?? name;
    for (const placeholder of [v1, v2, v3, v4]) {
      if (placeholder !== undefined) checkKeyValue(attribute, values[placeholder]);
    }
  }
};

interface WriteRequest {
  PutRequest?: { Item?: Record<string, AttributeValue> };
  DeleteRequest?: { Key?: Record<string, AttributeValue> };
}

/** Every check that applies to one request's input, by its shape (the same for every command that has it). */
export const checkRequest = (input: Record<string, unknown>): void => {
  const typed = input as {
    Item?: Record<string, AttributeValue>;
    Key?: Record<string, AttributeValue>;
    KeyConditionExpression?: string;
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, AttributeValue>;
    TransactItems?: {
      Put?: { Item?: Record<string, AttributeValue> };
      Update?: { Key?: Record<string, AttributeValue> };
      Delete?: { Key?: Record<string, AttributeValue> };
      ConditionCheck?: { Key?: Record<string, AttributeValue> };
    }[];
    RequestItems?: Record<string, { Keys?: Record<string, AttributeValue>[] } | WriteRequest[]>;
  };
  checkItem(typed.Item);
  checkKey(typed.Key);
  if (typed.KeyConditionExpression) {
    checkKeyCondition(
      typed.KeyConditionExpression,
      typed.ExpressionAttributeNames,
      typed.ExpressionAttributeValues,
    );
  }
  if (typed.TransactItems) {
    let total = 0;
    for (const item of typed.TransactItems) {
      total += checkItem(item.Put?.Item);
      checkKey(item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key);
    }
    if (total > TRANSACTION_MAX_BYTES) {
      throw new StorageLimitExceeded(
        'item',
        `The change would write ${total} bytes at once; at most ${TRANSACTION_MAX_BYTES}.`,
      );
    }
  }
  for (const request of Object.values(typed.RequestItems ?? {})) {
    if (Array.isArray(request)) {
      for (const write of request) {
        checkItem(write.PutRequest?.Item);
        checkKey(write.DeleteRequest?.Key);
      }
    } else for (const key of request.Keys ?? []) checkKey(key);
  }
};

/** DynamoDB's own refusal of an update that would grow a record past the item limit. */
const ITEM_SIZE_REFUSAL = /item size (to update )?has exceeded the maximum allowed size/i;

/**
 * Adds the checks to a client at the build step: after marshalling and serialising (so they see the input
 * in DynamoDB's types, as the document client marshalled it) and around the retries:
 * each request is checked before it is sent, and DynamoDB's item-size refusal of an update (which only
 * the table can judge) becomes the same client error.
 */
export const guardStorageLimits = (client: DynamoDBClient): void =>
  client.middlewareStack.add(
    (next) => async (args) => {
      checkRequest(args.input as Record<string, unknown>);
      try {
        return await next(args);
      } catch (error) {
        if (
          error instanceof Error &&
          error.name === 'ValidationException' &&
          ITEM_SIZE_REFUSAL.test(error.message)
        ) {
          throw new StorageLimitExceeded(
            'item',
            'The record would grow beyond what the table stores per record.',
          );
        }
        throw error;
      }
    },
    { step: 'build', priority: 'high', name: 'storageLimits' },
  );
