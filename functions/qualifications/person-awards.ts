/**
 * What a person's record keeps of their awards: one entry per award (`award#<id>`), written by the award's
 * own writes (`awards.ts`), so whoever reads the person reads their competence (evaluations, the gate,
 * `filter[compliant_with]`) without the awards' writes in its bundle.
 */
import type { StoredResource } from '#shared/data/stored-resource';
import type { AwardEntry } from './rules/awards';

/** The prefix of the entries a person's record keeps of their awards. */
export const ON_PERSON = 'award#';

/** A person's awards, from the entries their record keeps. */
export const awardsOf = (person: StoredResource): AwardEntry[] =>
  Object.entries(person).flatMap(([name, value]) =>
    name.startsWith(ON_PERSON) && typeof value === 'string' ? [JSON.parse(value) as AwardEntry] : [],
  );
