/**
 * Issue 42, item 7: a stream consumer's writes that make it count each event once
 * (`shared/data/once-per-event.ts`): an item keyed by the event, written only if absent; an item many
 * events move, moved only by a mark above the one it holds, so a redelivered event, even after later
 * ones, moves nothing; and, like every tenant write, only inside the consumer's organisation.
 */
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '#shared/data/ids';
import { pastMark, putUnlessPresent } from '#shared/data/once-per-event';
import { getItem } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import { counterKey } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';

const org = uuidv7();
const scope = scopeOf([org]);

describe('writes once per event', () => {
  it('an item keyed by the event is written once: a second put of its key is refused and changes nothing', async () => {
    const item = { pk: `ORG#${org}#once`, sk: uuidv7(), org_id: org, n: 1 };
    expect(await putUnlessPresent(scope, item)).toBe(true);
    expect(await putUnlessPresent(scope, { ...item, n: 2 })).toBe(false);
    expect(await getItem({ pk: item.pk, sk: item.sk }, true)).toEqual(item);
  });

  it('a marked item moves only for a mark above its own: the same mark or a lower one is refused and changes nothing', async () => {
    const counter = counterKey(org, 'marked');
    const key = { ...counter, orgId: org };
    const move = (mark: string, state: string) =>
      commit(scope, [pastMark(scope, key, mark, { set: { state }, add: { count: 1 } })]).then(
        () => true,
        (error: unknown) => {
          if (error instanceof WriteRefused && error.code === 'stale' && error.op === 0) return false;
          throw error;
        },
      );
    // 2, then 2 again (a redelivery), 1 (an earlier event redelivered after it), 3.
    const moves = [await move('2', 'b'), await move('2', 'b'), await move('1', 'a'), await move('3', 'c')];
    expect(moves).toEqual([true, false, false, true]);
    expect(await getItem(counter, true)).toEqual({
      ...counter,
      org_id: org,
      count: 2,
      state: 'c',
      mark: '3',
    });
  });

  it('neither writes outside the scope it is given (another organisation’s item is refused before it is sent)', async () => {
    const other = uuidv7();
    const item = { pk: `ORG#${other}#once`, sk: uuidv7(), org_id: other };
    await expect(putUnlessPresent(scope, item)).rejects.toBeInstanceOf(WriteRefused);
    const theirCounter = counterKey(other, 'marked');
    expect(() => pastMark(scope, { ...theirCounter, orgId: other }, '1', { add: { count: 1 } })).toThrow(
      WriteRefused,
    );
    expect(await getItem({ pk: item.pk, sk: item.sk }, true)).toBeNull();
    expect(await getItem(theirCounter, true)).toBeNull();
  });
});
