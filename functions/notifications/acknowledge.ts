/**
 * Acknowledging an envelope (`PATCH /v3/notifications/{id}` with `acknowledged: true`): the envelope's
 * `acknowledged_at` (and its marks: acknowledging reads it), its inbox's counts, and its acknowledgement
 * record with the `notification.acknowledged` event commit in one transaction, every item's version
 * checked; the record's escalation is disarmed in the same write (its due keys removed). Once only: a
 * second acknowledgement keeps the first time and changes nothing else than the marks it names.
 */
import { type InboxPut, versionedPutOp } from '#shared/data/inbox';
import { getItem, live } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, type WriteOp, WriteRefused } from '#shared/data/transaction';
import { UnprocessableContentError } from '#shared/jsonapi/errors';
import { acknowledgementKey, newAcknowledgement } from './acknowledgement-records';
import { type InboxOwner, ownEnvelope } from './inbox-owner';
import { readEnvelope, readState, type StoredEnvelope, statePut } from './inbox-state';
import { changed, changeEnvelope, type EnvelopeChange, retried } from './inbox-writes';

const ACKNOWLEDGED = '/data/attributes/acknowledged';

/** The acknowledgement record once acknowledged at `at`, its escalation disarmed. */
const acknowledgedRecord = (record: StoredResource, at: string): StoredResource => {
  const { gsi1pk: _due, gsi1sk: _dueAt, ...rest } = record as StoredResource & Record<string, unknown>;
  return { ...rest, version: record.version + 1, attributes: { ...record.attributes, acknowledged_at: at } };
};

export const acknowledgeEnvelope = async (
  owner: InboxOwner,
  scope: Scope,
  id: string,
  change: EnvelopeChange,
  now = Date.now,
): Promise<ReturnType<typeof changeEnvelope>> => {
  const envelope = ownEnvelope(owner, await readEnvelope(owner.userId, id, true));
  if (envelope.attributes.requires_ack !== true)
    throw new UnprocessableContentError([
      { pointer: ACKNOWLEDGED, detail: 'This notification does not ask to be acknowledged.' },
    ]);
  // Once: a second acknowledgement is the first one's answer, with whatever marks it names.
  if (envelope.attributes.acknowledged_at) return changeEnvelope(owner, id, change, now);
  return retried(async () => {
    const [state, stored] = await Promise.all([
      readState(owner.userId, true),
      readEnvelope(owner.userId, id, true),
    ]);
    const current = ownEnvelope(owner, stored && live(stored, now()) ? stored : null);
    const event = current.attributes.event as { id: string; name: string };
    const record = await getItem<StoredResource>(acknowledgementKey(current.org_id, event.id, id), true);
    const at = new Date(now()).toISOString();
    // Acknowledging reads it, unless the same request names its state.
    const next = changed(current, { state: 'read', ...change }, state, now());
    const envelopeAfter: StoredEnvelope = {
      ...next.envelope,
      attributes: { ...next.envelope.attributes, acknowledged_at: at },
    };
    const stateAfter = { ...next.state, version: state.version + 1 };
    const subject = String(current.rels.subject ?? ':').split(':');
    const ops: WriteOp[] = [
      versionedPutOp(envelopeAfter as unknown as InboxPut),
      versionedPutOp(statePut(owner.userId, stateAfter)),
      record
        ? { replace: acknowledgedRecord(record, at), was: record, as: 'acknowledged' }
        : // An envelope written before acknowledgement records were: its record, made acknowledged.
          {
            create: {
              ...acknowledgedRecord(
                newAcknowledgement(
                  {
                    id,
                    recipient: owner.userId,
                    org_id: current.org_id,
                    event,
                    subject: { type: subject[0] ?? '', id: subject[1] ?? '' },
                  },
                  Date.parse(String(current.meta.created_at)),
                ) as unknown as StoredResource,
                at,
              ),
              version: 1,
            },
            as: 'acknowledged',
          },
    ];
    try {
      await commit(scope, ops);
    } catch (error) {
      if (error instanceof WriteRefused && (error.code === 'stale' || error.code === 'exists')) return null;
      throw error;
    }
    return { envelope: envelopeAfter, state: stateAfter };
  });
};
