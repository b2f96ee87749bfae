/**
 * CSV for exports (RFC 4180): fields quoted when they hold a comma, quote or line break; cells a
 * spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return) are prefixed with
 * an apostrophe so opening the file never executes anything. Objects and arrays are written as JSON.
 */
const FORMULA = /^[=+\-@\t\r]/;

export const csvCell = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  const safe = typeof value === 'string' && FORMULA.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export const csvRow = (values: readonly unknown[]): string => `${values.map(csvCell).join(',')}\r\n`;

/** Export columns: the id, the record's attributes (by the first page's names), its relationships' ids, its times. */
export interface Row {
  id: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, unknown>;
  created_at: unknown;
  updated_at: unknown;
}

export const columnsOf = (rows: readonly Row[]): { attributes: string[]; relationships: string[] } => ({
  attributes: [...new Set(rows.flatMap((r) => Object.keys(r.attributes)))].sort(),
  relationships: [...new Set(rows.flatMap((r) => Object.keys(r.relationships)))].sort(),
});

export const headerRow = (columns: ReturnType<typeof columnsOf>): string =>
  csvRow([
    'id',
    ...columns.attributes,
    ...columns.relationships.map((r) => `${r}_id`),
    'created_at',
    'updated_at',
  ]);

/** A row in the header's columns; attributes the header does not name are kept as JSON in a last column. */
export const dataRow = (row: Row, columns: ReturnType<typeof columnsOf>): string => {
  const extra = Object.fromEntries(
    Object.entries(row.attributes).filter(([k]) => !columns.attributes.includes(k)),
  );
  return csvRow([
    row.id,
    ...columns.attributes.map((k) => row.attributes[k]),
    ...columns.relationships.map((k) => row.relationships[k]),
    row.created_at,
    row.updated_at,
    ...(Object.keys(extra).length > 0 ? [extra] : []),
  ]);
};
