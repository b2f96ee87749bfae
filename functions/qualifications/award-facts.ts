/**
 * What an award's evidence guard reads (`definitions.ts`): whether its type requires evidence and how many
 * documents its evidence folder holds, in one BatchGetItem.
 */
import { type FolderTally, folderTallyKey } from '#functions/documents/definitions';
import { readAheadOr } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import { type ItemKey, keyId, type StoredResource } from '#shared/data/stored-resource';
import type { AwardFacts } from './rules/awards';

export const readAwardFacts = async (
  scope: Scope,
  award: StoredResource,
  typeKey: (orgId: string, id: string) => ItemKey,
): Promise<AwardFacts> => {
  const type = typeKey(award.org_id, String(award.rels.qualification_type));
  const folder = award.rels.evidence;
  const tally = typeof folder === 'string' ? folderTallyKey(award.org_id, folder) : null;
  const found = new Map(
    (await readAheadOr<StoredResource | FolderTally>(scope, tally ? [type, tally] : [type])).map((item) => [
      keyId(item),
      item,
    ]),
  );
  const typeRecord = found.get(keyId(type)) as StoredResource | undefined;
  const folderTally = tally ? (found.get(keyId(tally)) as FolderTally | undefined) : undefined;
  return {
    evidenceRequired: typeRecord?.attributes.evidence_required === true,
    documents: folderTally?.documents ?? 0,
  };
};
