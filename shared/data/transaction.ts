/**
 * Writes that belong together commit together: a record and its counter, a state change and the version
 * it was based on, a record and the records that link to it, and the event of every record it changes
 * (`events.ts`). The id directory's entry of every record it creates or deletes (`id-directory.ts`) is
 * written once it has committed, outside it. Building the request is pure (`buildTransaction`,
 * unit-tested); `commit` checks the scope, sends it and names what refused it.
 */
import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from './clients';
import { type Change, eventItem, type Transition } from './events';
import { type DirectoryChange, directoryChanges, isTenantRecord } from './id-directory';
import type { Actor, Scope } from './scope';
import { inScope, systemActor } from './scope';
import {
  childCounter,
  countedIn,
  counterKey,
  countMoves,
  type ItemKey,
  keyId,
  type StoredResource,
} from './stored-resource';
import { DataUnavailable } from './unavailable';

/** Attempts of a transaction cancelled only by conflicts with concurrent transactions. */
const CONFLICT_ATTEMPTS = 4;

/** DynamoDB's limit on actions in one TransactWriteItems. */
export const TRANSACTION_MAX = 100;

/**
 * The ops that write a tenant record each commit its event (`<type>.created`, `.updated`, `.deleted`);
 * `as` names a domain action instead (`allocated` for `vehicle.allocated`), one its type declares.
 * `link` and `unlink` keep the other side of a relationship (a user's teams, a contact's interactions): the
 * event of the record whose write set it announces it, once.
 */
export type WriteOp =
  /**
   * A new tenant record (refused if its key exists), counted (and, filed under a parent, counted there);
   * a declared transition's (a deleted node restored) names the move, which its event carries.
   */
  | { create: StoredResource; as?: string; transition?: Transition }
  /**
   * A new version of a tenant record, refused unless the stored version is `version - 1`; `note` is meta
   * its event carries beside the record (the members a team's membership change added and removed); a
   * declared transition's names the move, which its event carries (`transition`). `was` is the record as
   * read, the version it replaces: its event carries the members that changed as they were (the audit's
   * `before`).
   */
  | {
      replace: StoredResource;
      was: StoredResource;
      as?: string;
      note?: Record<string, unknown>;
      transition?: Transition;
    }
  /** A tenant record removed, refused unless the stored version is `version`; uncounted (under its parent too). */
  | { delete: StoredResource; as?: string }
  /**
   * Appends `id` to a relationship list of an existing record (refused if the record is absent); `set`
   * keeps what joining gives it beside the link, as `keep` sets names (a member's `held#<grant>` of the
   * team's grants): DynamoDB allows one action per item in a transaction.
   */
  | { link: { key: ItemKey; relationship: string; id: string; set?: Record<string, string> } }
  /** Removes `id` from a relationship list of an existing record, if present; `unset`: names kept because of the link, removed with it. */
  | { unlink: { record: StoredResource; relationship: string; id: string; unset?: readonly string[] } }
  /**
   * Keeps on an existing record top-level attributes that a change of another record decides, never
   * served: sets (or, given null, removes) names (a user's `held#<grant>`, an attendance's `schedule`), adds to numbers and joins
   * strings to sets (a work node's cost totals, from its lines). Its version moves, so a replace read
   * before cannot overwrite them; `where` also requires attribute values as read (a sheet's status).
   * Its event is the other record's.
   */
  | {
      keep: {
        key: ItemKey;
        set?: Record<string, string | ItemKey | null>;
        add?: Record<string, number>;
        join?: Record<string, string>;
        where?: Record<string, string>;
      };
    }
  /** Appends `id` to the list at `map.name` of an existing record outside tenant partitions (a principal's teams). */
  | { append: { key: ItemKey; map: string; name: string; id: string } }
  /**
   * Adds to a counter item (e.g. the length of one record's audit history), creating it at need. With
   * `expect`, refused unless its count stands at that before the transaction (none yet counts as 0): a
   * write that must know it saw everything counted (a folder's documents, deleted with the folder).
   */
  | { count: { key: ItemKey; by: number; expect?: number } }
  /**
   * Adds to named numbers of a counter item and joins ids to (or takes them from) its string sets,
   * creating it at need: one item holding several counts that move together (a scheme's progress).
   * `drop` removes numbers no longer counted (the days a window has left).
   */
  | {
      tally: {
        key: ItemKey;
        add?: Record<string, number>;
        join?: Record<string, string>;
        leave?: Record<string, string>;
        drop?: readonly string[];
      };
    }
  /**
   * Claims a unique value (a sentinel item, which may say what holds it and when it expires); refused if
   * taken, unless by its own holder (the claim is renewed) or by a claim whose `expires_at` has passed
   * (TTL deletion lags by up to days: an expired claim holds nothing).
   */
  | { claim: ItemKey & { holder_id?: string; org_id?: string; expires_at?: number } }
  /** Requires that a record exists (at this `version`, if given), without changing it. */
  | { check: ItemKey & { version?: number } }
  /** A record outside tenant partitions (principals, clients), written as it is. */
  | { put: ItemKey & object }
  /** A record outside tenant partitions removed, if present. */
  | { remove: ItemKey }
  /** An event of a change the ops above cannot describe (a rate's new version, kept outside its code). */
  | { event: Change }
  /** An internal item's own conditional write, as built by its module (a job's state under its lease). */
  | { item: TransactItem };

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

interface Tally {
  key: ItemKey;
  op: number;
  add: Map<string, number>;
  join: Map<string, Set<string>>;
  leave: Map<string, Set<string>>;
  drop: Set<string>;
  /** The `count` the item must hold before the transaction, and the op that asked it. */
  expect?: { count: number; op: number };
}

/** The condition of a counter whose `count` must stand at `expected` (none yet is 0). */
const expectedCount = (expected: number) => ({
  ConditionExpression:
    expected === 0 ? 'attribute_not_exists(#expected) OR #expected = :expected' : '#expected = :expected',
  names: { '#expected': 'count' },
  values: { ':expected': expected },
});

/**
 * ADD to a counter item's numbers and sets, DELETE from its sets, REMOVE numbers dropped; every counter
 * an op list touches becomes one update (DynamoDB allows one action per item), conditional on its expected
 * count if an op gave one (a ConditionCheck when nothing changes). Null when the ops cancel out.
 */
const counterUpdate = ({ key, add, join, leave, drop, expect }: Tally): TransactItem | null => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clause = (entries: [string, unknown][]) =>
    entries.map(([name, value]) => {
      const at = Object.keys(names).length;
      names[`#a${at}`] = name;
      values[`:a${at}`] = value;
      return `#a${at} :a${at}`;
    });
  const adds = clause([...[...add].filter(([, by]) => by !== 0), ...join]);
  const deletes = clause([...leave]);
  const removes = [...drop]
    .filter((name) => !add.has(name))
    .map((name) => {
      const at = Object.keys(names).length;
      names[`#a${at}`] = name;
      return `#a${at}`;
    });
  const condition = expect && expectedCount(expect.count);
  if (adds.length + deletes.length + removes.length === 0)
    return condition
      ? {
          ConditionCheck: {
            TableName: tableName,
            Key: key,
            ConditionExpression: condition.ConditionExpression,
            ExpressionAttributeNames: condition.names,
            ExpressionAttributeValues: condition.values,
          },
        }
      : null;
  const allValues = { ...values, ...condition?.values };
  return {
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: [
        adds.length && `ADD ${adds.join(', ')}`,
        deletes.length && `DELETE ${deletes.join(', ')}`,
        removes.length && `REMOVE ${removes.join(', ')}`,
      ]
        .filter(Boolean)
        .join(' '),
      ...(condition && { ConditionExpression: condition.ConditionExpression }),
      ExpressionAttributeNames: { ...names, ...condition?.names },
      ...(Object.keys(allValues).length > 0 && { ExpressionAttributeValues: allValues }),
    },
  };
};

/** What an op does to a tenant record, for its event; null for ops on anything else. */
const changeOf = (op: WriteOp): Change | null => {
  if ('create' in op)
    return {
      subject: op.create,
      action: op.as ?? 'created',
      record: op.create,
      was: null,
      ...(op.transition && { transition: op.transition }),
    };
  if ('replace' in op)
    return {
      subject: op.replace,
      action: op.as ?? 'updated',
      record: op.replace,
      was: op.was,
      ...(op.note && { note: op.note }),
      ...(op.transition && { transition: op.transition }),
    };
  // A deletion is the step after the version it was conditional on.
  if ('delete' in op)
    return {
      subject: op.delete,
      action: op.as ?? 'deleted',
      version: op.delete.version + 1,
      was: op.delete,
    };
  if ('event' in op) return op.event;
  return null;
};

/** Who commits the ops, and when: the events' actor and time (their ids are minted from it). */
export interface Commit {
  actor: Actor;
  at: number;
}

/**
 * The transaction items for each op, in order, then their events: `owners[i]` is the op behind item `i`;
 * and what the id directory is to record once they commit (`directory`).
 */
export const buildTransaction = (
  ops: readonly WriteOp[],
  { actor, at }: Commit,
): { items: TransactItem[]; owners: number[]; directory: DirectoryChange[] } => {
  const items: TransactItem[] = [];
  const owners: number[] = [];
  const add = (op: number, ...entries: TransactItem[]) => {
    for (const entry of entries) {
      items.push(entry);
      owners.push(op);
    }
  };
  const checked = new Set<string>();
  // A keep or a link requires its record to exist, so an existence check of a record kept or linked in the
  // same transaction is theirs (a specification named and counted by a job role, a contact an interaction
  // is listed on): DynamoDB allows one action per item.
  const kept = new Set(
    ops.flatMap((op) => ('keep' in op ? [keyId(op.keep.key)] : 'link' in op ? [keyId(op.link.key)] : [])),
  );
  const counters = new Map<string, Tally>();
  const tally = (op: number, key: ItemKey): Tally => {
    const found: Tally = counters.get(keyId(key)) ?? {
      key,
      op,
      add: new Map(),
      join: new Map(),
      leave: new Map(),
      drop: new Set(),
    };
    counters.set(keyId(key), found);
    return found;
  };
  const count = (op: number, key: ItemKey, by: number, name = 'count') => {
    const { add } = tally(op, key);
    add.set(name, (add.get(name) ?? 0) + by);
  };
  /** The counts of a counted filter (`StoredResource.counted`) a create or change moves, on its type's counter (or its parent's). */
  const recount = (i: number, record: StoredResource, created: boolean) => {
    const { stored, moves } = countMoves(record, created);
    for (const [name, by] of Object.entries(moves)) {
      const at = countedIn(record, name);
      count(i, at.key, by, at.name);
    }
    return stored;
  };
  ops.forEach((op, i) => {
    if ('create' in op) {
      const Item = recount(i, op.create, true);
      add(i, { Put: { TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' } });
      count(i, counterKey(op.create.org_id, op.create.type), 1);
      const parent = childCounter(op.create);
      if (parent) count(i, parent, 1);
    } else if ('replace' in op) {
      add(i, {
        Put: {
          TableName: tableName,
          Item: recount(i, op.replace, false),
          ConditionExpression: '#version = :previous',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':previous': op.replace.version - 1 },
        },
      });
    } else if ('delete' in op) {
      add(i, {
        Delete: {
          TableName: tableName,
          Key: { pk: op.delete.pk, sk: op.delete.sk },
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': op.delete.version },
        },
      });
      count(i, counterKey(op.delete.org_id, op.delete.type), -1);
      for (const name of op.delete.counted ?? []) {
        const at = countedIn(op.delete, name);
        count(i, at.key, -1, at.name);
      }
      const parent = childCounter(op.delete);
      if (parent) count(i, parent, -1);
    } else if ('link' in op) {
      const kept = Object.entries(op.link.set ?? {});
      add(i, {
        Update: {
          TableName: tableName,
          Key: op.link.key,
          UpdateExpression: [
            'SET #rels.#rel = list_append(if_not_exists(#rels.#rel, :none), :id), #version = #version + :one',
            ...kept.map((_, k) => `#s${k} = :s${k}`),
          ].join(', '),
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: {
            '#rels': 'rels',
            '#rel': op.link.relationship,
            '#version': 'version',
            ...Object.fromEntries(kept.map(([name], k) => [`#s${k}`, name])),
          },
          ExpressionAttributeValues: {
            ':none': [],
            ':id': [op.link.id],
            ':one': 1,
            ...Object.fromEntries(kept.map(([, value], k) => [`:s${k}`, value])),
          },
        },
      });
    } else if ('unlink' in op) {
      const { record, relationship, id, unset = [] } = op.unlink;
      const current = record.rels[relationship];
      const list = Array.isArray(current) ? current : [];
      add(i, {
        Update: {
          TableName: tableName,
          Key: { pk: record.pk, sk: record.sk },
          UpdateExpression: [
            'SET #rels.#rel = :list, #version = :next',
            unset.length && `REMOVE ${unset.map((_, k) => `#u${k}`).join(', ')}`,
          ]
            .filter(Boolean)
            .join(' '),
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: {
            '#rels': 'rels',
            '#rel': relationship,
            '#version': 'version',
            ...Object.fromEntries(unset.map((name, k) => [`#u${k}`, name])),
          },
          ExpressionAttributeValues: {
            ':list': list.filter((x) => x !== id),
            ':version': record.version,
            ':next': record.version + 1,
          },
        },
      });
    } else if ('keep' in op) {
      const { key, set = {}, add: numbers = {}, join = {}, where = {} } = op.keep;
      const names: Record<string, string> = { '#version': 'version' };
      const values: Record<string, unknown> = { ':one': 1 };
      /** `#kN` for the attribute (and `:kN` for its value, if any). */
      const placeholder = (attribute: string, value?: unknown) => {
        const at = `k${Object.keys(names).length}`;
        names[`#${at}`] = attribute;
        if (value !== undefined) values[`:${at}`] = value;
        return at;
      };
      const sets = ['#version = #version + :one'];
      const removes: string[] = [];
      for (const [attribute, value] of Object.entries(set)) {
        if (value === null) removes.push(`#${placeholder(attribute)}`);
        else {
          const at = placeholder(attribute, value);
          sets.push(`#${at} = :${at}`);
        }
      }
      const adds = [
        ...Object.entries(numbers).filter(([, by]) => by !== 0),
        ...Object.entries(join).map(([attribute, value]): [string, unknown] => [attribute, new Set([value])]),
      ].map(([attribute, value]) => {
        const at = placeholder(attribute, value);
        return `#${at} :${at}`;
      });
      const conditions = Object.entries(where).map(([attribute, value]) => {
        names['#attributes'] = 'attributes';
        const at = placeholder(attribute, value);
        return `#attributes.#${at} = :${at}`;
      });
      add(i, {
        Update: {
          TableName: tableName,
          Key: key,
          UpdateExpression: [
            `SET ${sets.join(', ')}`,
            adds.length && `ADD ${adds.join(', ')}`,
            removes.length && `REMOVE ${removes.join(', ')}`,
          ]
            .filter(Boolean)
            .join(' '),
          ConditionExpression: ['attribute_exists(pk)', ...conditions].join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      });
    } else if ('append' in op) {
      add(i, {
        Update: {
          TableName: tableName,
          Key: op.append.key,
          UpdateExpression: 'SET #map.#name = list_append(if_not_exists(#map.#name, :none), :id)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#map': op.append.map, '#name': op.append.name },
          ExpressionAttributeValues: { ':none': [], ':id': [op.append.id] },
        },
      });
    } else if ('count' in op) {
      count(i, op.count.key, op.count.by);
      if (op.count.expect !== undefined) tally(i, op.count.key).expect = { count: op.count.expect, op: i };
    } else if ('tally' in op) {
      const { key, add = {}, join = {}, leave = {}, drop = [] } = op.tally;
      for (const [name, by] of Object.entries(add)) count(i, key, by, name);
      const sets = tally(i, key);
      for (const name of drop) sets.drop.add(name);
      for (const [name, id] of Object.entries(join))
        sets.join.set(name, (sets.join.get(name) ?? new Set()).add(id));
      for (const [name, id] of Object.entries(leave))
        sets.leave.set(name, (sets.leave.get(name) ?? new Set()).add(id));
    } else if ('claim' in op) {
      const { holder_id } = op.claim;
      add(i, {
        Put: {
          TableName: tableName,
          Item: op.claim,
          ConditionExpression: [
            'attribute_not_exists(pk)',
            'expires_at < :now',
            ...(holder_id === undefined ? [] : ['holder_id = :holder']),
          ].join(' OR '),
          ExpressionAttributeValues: {
            ':now': Math.floor(at / 1000),
            ...(holder_id !== undefined && { ':holder': holder_id }),
          },
        },
      });
    } else if ('check' in op) {
      const { version, ...key } = op.check;
      // The same existence asked twice (a parent named and also counted under) is one check.
      const checkId = `${keyId(key)}\n${version}`;
      if (checked.has(checkId) || (version === undefined && kept.has(keyId(key)))) return;
      checked.add(checkId);
      add(i, {
        ConditionCheck: {
          TableName: tableName,
          Key: key,
          ...(version === undefined
            ? { ConditionExpression: 'attribute_exists(pk)' }
            : {
                ConditionExpression: '#version = :version',
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':version': version },
              }),
        },
      });
    } else if ('put' in op) {
      add(i, { Put: { TableName: tableName, Item: op.put as Record<string, unknown> } });
    } else if ('remove' in op) {
      add(i, { Delete: { TableName: tableName, Key: op.remove } });
    } else if ('item' in op) {
      add(i, op.item);
    }
  });
  const directory = directoryChanges(
    ops.flatMap((op) =>
      'create' in op ? [op.create] : 'put' in op && isTenantRecord(op.put) ? [op.put] : [],
    ),
    ops.flatMap((op) => ('delete' in op ? [op.delete] : [])),
  );
  for (const counter of counters.values()) {
    const update = counterUpdate(counter);
    // A refused expectation is the op's that set it, not the first op that touched the counter.
    if (update) add(counter.expect?.op ?? counter.op, update);
  }
  ops.forEach((op, i) => {
    const change = changeOf(op);
    const event = change && eventItem(change, actor, at);
    if (event)
      add(i, { Put: { TableName: tableName, Item: event, ConditionExpression: 'attribute_not_exists(pk)' } });
  });
  return { items, owners, directory };
};

/**
 * The directory's entries, written once the transaction has committed and outside it: a plain write costs
 * half a transactional one (issue 42, item 7). Either way round nothing reads wrong: a record whose entry
 * was not written (the function stopped, or the write failed) is looked up in each organisation the
 * caller reads, as records stored before the directory are; an entry whose record is gone reads that
 * organisation, finds nothing, and answers 404 as for an unknown id. So a failure here does not fail
 * the write, which has committed.
 */
export const recordInDirectory = (changes: readonly DirectoryChange[]) =>
  Promise.allSettled(
    changes.map(({ put, remove }) =>
      put
        ? documents.send(new PutCommand({ TableName: tableName, Item: put }))
        : documents.send(new DeleteCommand({ TableName: tableName, Key: remove })),
    ),
  );

/** How many items the ops write in one TransactWriteItems, their events included (see `TRANSACTION_MAX`). */
export const transactionSize = (ops: readonly WriteOp[]): number =>
  buildTransaction(ops, { actor: systemActor(), at: Date.now() }).items.length;

/** Why a write did not happen, in the data layer's terms; the resource layer says what it means. */
export class WriteRefused extends Error {
  constructor(
    /** `exists`: a create met a record; `stale`: a version or existence condition failed. */
    readonly code: 'exists' | 'stale' | 'out-of-scope' | 'too-large',
    /** The index of the op that was refused. */
    readonly op?: number,
  ) {
    super(op === undefined ? code : `${code} at op ${op}`);
  }
}

/**
 * Commits the ops in one TransactWriteItems, with their events; every tenant record must lie inside the
 * scope, and the scope's actor is who the events say made the change.
 */
export const commit = async (scope: Scope, ops: readonly WriteOp[]): Promise<void> => {
  if (
    ops.some((op) => {
      const orgId = 'unlink' in op ? op.unlink.record.org_id : changeOf(op)?.subject.org_id;
      return orgId !== undefined && !inScope(scope, orgId);
    })
  ) {
    throw new WriteRefused('out-of-scope');
  }
  for (let attempt = 1; ; attempt++) {
    // Built per attempt: an event's id is minted from the time its transaction is sent, so events
    // commit in about the order of their ids (the change feed relies on it; see events.ts).
    const { items, owners, directory } = buildTransaction(ops, { actor: scope.actor, at: Date.now() });
    if (items.length > TRANSACTION_MAX) throw new WriteRefused('too-large');
    try {
      // A token per attempt: the SDK's own retries of this send (after a timeout, say) carry the same
      // one, and DynamoDB applies a request with a given token at most once, so a write never lands twice.
      // A cancelled attempt wrote nothing, so the next one may take a fresh token.
      await documents.send(
        new TransactWriteCommand({ TransactItems: items, ClientRequestToken: randomUUID() }),
      );
      await recordInDirectory(directory);
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      const op = owners[failed];
      const refused = op === undefined ? undefined : ops[op];
      if (op !== undefined && refused) {
        throw new WriteRefused('create' in refused || 'claim' in refused ? 'exists' : 'stale', op);
      }
      // Cancelled only by conflicts with other transactions (nothing was written): try again shortly.
      if (!reasons.every((r) => r.Code === 'TransactionConflict' || r.Code === 'None' || !r.Code))
        throw error;
      if (attempt === CONFLICT_ATTEMPTS)
        throw new DataUnavailable('The transaction kept conflicting with others');
      await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt + Math.random() * 20));
    }
  }
};
