/**
 * CSV rows → locations. Columns are found by name (an import template may map the file's own column
 * names onto fields); `reference` is required, as the organisation's key that makes a corrected
 * re-import update rather than duplicate. A bad row is rejected with its line; it never stops the others.
 */
import { hasControlCharacter } from '#shared/domain/text';
import type { CsvRow } from './csv';

/** The same bounds as a location written through the API (functions/places/locations.ts). */
const REFERENCE_MAX = 100;
const NAME_MAX = 200;
const ADDRESS_MAX = 500;

export const LOCATION_FIELDS = ['reference', 'name', 'address', 'latitude', 'longitude'] as const;
export type LocationField = (typeof LOCATION_FIELDS)[number];

export interface LocationRow {
  line: number;
  reference: string;
  attributes: {
    reference: string;
    name: string;
    address?: string;
    location?: { latitude: number; longitude: number };
  };
}

export interface RejectedRow {
  line: number;
  message: string;
}

/** Which column holds each field: the template's mapping (field → header) or the field's own name. */
export const columnIndexes = (
  header: readonly string[],
  mapping: Partial<Record<LocationField, string>> = {},
) =>
  Object.fromEntries(
    LOCATION_FIELDS.map((field) => [field, header.indexOf((mapping[field] ?? field).trim().toLowerCase())]),
  ) as Record<LocationField, number>;

const number = (text: string | undefined, min: number, max: number): number | null | 'bad' => {
  if (text === undefined || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) && value >= min && value <= max ? value : 'bad';
};

export const mapLocationRows = (
  rows: readonly CsvRow[],
  columns: Record<LocationField, number>,
): { valid: LocationRow[]; rejected: RejectedRow[] } => {
  const valid: LocationRow[] = [];
  const rejected: RejectedRow[] = [];
  const seen = new Map<string, number>();
  for (const { line, values } of rows) {
    const cell = (field: LocationField) => (columns[field] >= 0 ? values[columns[field]]?.trim() : undefined);
    const reference = cell('reference') ?? '';
    const name = cell('name') || reference;
    const latitude = number(cell('latitude'), -90, 90);
    const longitude = number(cell('longitude'), -180, 180);
    const address = cell('address');
    const problem =
      reference === ''
        ? 'reference is empty'
        : reference.length > REFERENCE_MAX || name.length > NAME_MAX || (address?.length ?? 0) > ADDRESS_MAX
          ? `reference, name and address are at most ${REFERENCE_MAX}, ${NAME_MAX} and ${ADDRESS_MAX} characters`
          : hasControlCharacter(reference + name) || hasControlCharacter(address ?? '', '\t\n\r')
            ? 'reference, name or address holds a control character'
            : seen.has(reference)
              ? `reference ${reference} already appears on line ${seen.get(reference)}`
              : latitude === 'bad' || longitude === 'bad'
                ? 'latitude must be -90..90 and longitude -180..180'
                : (latitude === null) !== (longitude === null)
                  ? 'latitude and longitude go together'
                  : null;
    if (problem) {
      rejected.push({ line, message: problem });
      continue;
    }
    seen.set(reference, line);
    valid.push({
      line,
      reference,
      attributes: {
        reference,
        name,
        ...(address && { address }),
        ...(typeof latitude === 'number' &&
          typeof longitude === 'number' && { location: { latitude, longitude } }),
      },
    });
  }
  return { valid, rejected };
};
