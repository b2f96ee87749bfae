/**
 * RFC 4180 CSV: comma-separated fields, optional double quotes (with "" for a quote inside), CRLF or
 * LF line ends, a header row first. Pure; reports the line each row starts on.
 */
export interface CsvRow {
  line: number;
  values: string[];
}

export type CsvResult = { ok: true; header: string[]; rows: CsvRow[] } | { ok: false; error: string };

export const parseCsv = (text: string): CsvResult => {
  const records: CsvRow[] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      row.push(field);
      records.push({ line: rowLine, values: row });
      row = [];
      field = '';
      rowLine = ++line;
    } else if (c === '\u0000') return { ok: false, error: 'The file is binary, not CSV text.' };
    else field += c;
  }
  if (quoted) return { ok: false, error: `A quoted field that starts on line ${rowLine} is never closed.` };
  if (field !== '' || row.length > 0) records.push({ line: rowLine, values: [...row, field] });
  const nonEmpty = records.filter((r) => !(r.values.length === 1 && r.values[0] === ''));
  const [first, ...rows] = nonEmpty;
  if (!first) return { ok: false, error: 'The file is empty.' };
  return { ok: true, header: first.values.map((h) => h.trim().toLowerCase()), rows };
};
