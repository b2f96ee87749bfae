import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  checkItem,
  checkRequest,
  ITEM_MAX_BYTES,
  NESTING_MAX,
  StorageLimitExceeded,
} from '#shared/data/storage-limits';

const S = (text: string): AttributeValue => ({ S: text });
const item = (extra: Record<string, AttributeValue> = {}) => ({
  pk: S('ORG#o#teams'),
  sk: S('id'),
  ...extra,
});

const refused = (run: () => unknown, limit: StorageLimitExceeded['limit']) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(StorageLimitExceeded);
    expect((error as StorageLimitExceeded).limit).toBe(limit);
    return;
  }
  throw new Error('expected a StorageLimitExceeded');
};

describe('DynamoDB limits, checked before a request is sent', () => {
  it('an item is measured by AWS’s rules: names and UTF-8 strings, numbers by digits, 3 bytes per map or list', () => {
    // pk(2)+11, sk(2)+2, n(1)+ (3 digits → 2 + 1), m(1) + 3 + (a(1) + 1 + 1 element byte)
    expect(checkItem(item({ n: { N: '123' }, m: { M: { a: { S: '€' } } } }))).toBe(
      2 + 11 + 2 + 2 + 1 + 3 + 1 + 3 + (1 + 3) + 1,
    );
  });

  it('an item over 400 KB is refused as too large; one just under passes', () => {
    expect(() => checkRequest({ Item: item({ a: S('x'.repeat(ITEM_MAX_BYTES - 100)) }) })).not.toThrow();
    refused(() => checkRequest({ Item: item({ a: S('x'.repeat(ITEM_MAX_BYTES)) }) }), 'item');
    refused(() => checkRequest({ Item: item({ a: S('€'.repeat(140_000)) }) }), 'item');
    refused(
      () =>
        checkRequest({
          RequestItems: { t: [{ PutRequest: { Item: item({ a: S('x'.repeat(ITEM_MAX_BYTES)) }) } }] },
        }),
      'item',
    );
  });

  it('a transaction’s items over 4 MB together are refused', () => {
    const big = { Put: { Item: item({ a: S('x'.repeat(300 * 1024)) }) } };
    refused(() => checkRequest({ TransactItems: Array.from({ length: 14 }, () => big) }), 'item');
  });

  it('key values: partition keys up to 2,048 bytes, sort keys (sk, lsi, gsi sort) up to 1,024, never empty', () => {
    expect(() => checkRequest({ Key: { pk: S('p'.repeat(2048)), sk: S('s'.repeat(1024)) } })).not.toThrow();
    refused(() => checkRequest({ Key: { pk: S('p'.repeat(2049)), sk: S('s') } }), 'key');
    refused(() => checkRequest({ Key: { pk: S('p'), sk: S('€'.repeat(342)) } }), 'key');
    refused(() => checkRequest({ Item: item({ lsi1: S('x'.repeat(1025)) }) }), 'key');
    refused(() => checkRequest({ Item: item({ gsi1pk: S('x'.repeat(2049)) }) }), 'key');
    refused(() => checkRequest({ Item: item({ gsi1sk: S('') }) }), 'key');
    refused(
      () => checkRequest({ RequestItems: { t: { Keys: [{ pk: S('p'), sk: S('s'.repeat(1025)) }] } } }),
      'key',
    );
    refused(
      () =>
        checkRequest({
          TransactItems: [{ ConditionCheck: { Key: { pk: S('p'.repeat(3000)), sk: S('s') } } }],
        }),
      'key',
    );
    // Attributes that are no key of the table or its indexes may be long.
    expect(() => checkRequest({ Item: item({ name: S('x'.repeat(5000)) }) })).not.toThrow();
  });

  it('a Query’s key condition values are keys too: a begins_with prefix over 1,024 bytes names nothing', () => {
    const query = (prefix: string) => ({
      KeyConditionExpression: 'pk = :pk AND begins_with(#k, :p)',
      ExpressionAttributeNames: { '#k': 'lsi1' },
      ExpressionAttributeValues: { ':pk': S('ORG#o#schemes'), ':p': S(prefix) },
    });
    expect(() => checkRequest(query('x'.repeat(1024)))).not.toThrow();
    refused(() => checkRequest(query('x'.repeat(1025))), 'key');
    refused(
      () =>
        checkRequest({
          KeyConditionExpression: 'gsi1pk = :g',
          ExpressionAttributeValues: { ':g': S('g'.repeat(2049)) },
        }),
      'key',
    );
  });

  it(`maps and lists nest at most ${NESTING_MAX} levels`, () => {
    const nest = (depth: number): AttributeValue => (depth === 0 ? S('x') : { M: { a: nest(depth - 1) } });
    expect(() => checkRequest({ Item: item({ a: nest(NESTING_MAX) }) })).not.toThrow();
    refused(() => checkRequest({ Item: item({ a: nest(NESTING_MAX + 1) }) }), 'nesting');
  });

  it('numbers outside 1E-130 … 9.99E+125 in magnitude are refused', () => {
    expect(() =>
      checkRequest({ Item: item({ n: { N: '9.99e125' }, z: { N: '0' }, t: { N: '1e-130' } }) }),
    ).not.toThrow();
    refused(() => checkRequest({ Item: item({ n: { N: '1e126' } }) }), 'number');
    refused(() => checkRequest({ Item: item({ n: { N: '-1e308' } }) }), 'number');
    refused(() => checkRequest({ Item: item({ n: { N: '5e-324' } }) }), 'number');
    refused(() => checkRequest({ Item: item({ n: { NS: ['1', '1e200'] } }) }), 'number');
  });
});
