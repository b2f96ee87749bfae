import { describe, expect, it } from 'vitest';
import { parseCsv } from '#functions/places/rules/csv';
import { columnIndexes, mapLocationRows } from '#functions/places/rules/location-rows';

describe('CSV parsing (RFC 4180)', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, and reports line numbers', () => {
    const parsed = parseCsv(
      'Reference,Name,Address\r\nL1,"Depot, North","1 ""Old"" Road\nKendal"\nL2,Yard,\n',
    );
    expect(parsed).toEqual({
      ok: true,
      header: ['reference', 'name', 'address'],
      rows: [
        { line: 2, values: ['L1', 'Depot, North', '1 "Old" Road\nKendal'] },
        { line: 4, values: ['L2', 'Yard', ''] },
      ],
    });
  });

  it('refuses an unclosed quote, binary content and an empty file', () => {
    expect(parseCsv('a,b\n"x,y\n')).toMatchObject({ ok: false });
    expect(parseCsv('a,b\n\u0000\u0001')).toMatchObject({ ok: false });
    expect(parseCsv('')).toMatchObject({ ok: false });
  });
});

describe('rows to locations', () => {
  const parse = (text: string, mapping = {}) => {
    const csv = parseCsv(text);
    if (!csv.ok) throw new Error(csv.error);
    return mapLocationRows(csv.rows, columnIndexes(csv.header, mapping));
  };

  it('maps columns by name, or through a template’s mapping', () => {
    expect(parse('reference,name,latitude,longitude\nL1,Depot,54.3,-2.7\n').valid).toEqual([
      {
        line: 2,
        reference: 'L1',
        attributes: { reference: 'L1', name: 'Depot', location: { latitude: 54.3, longitude: -2.7 } },
      },
    ]);
    const mapped = parse('Site Code,Site Name\nS9,Quarry\n', { reference: 'Site Code', name: 'Site Name' });
    expect(mapped.valid[0]?.attributes).toEqual({ reference: 'S9', name: 'Quarry' });
  });

  it('rejects bad rows with their line and keeps the good ones', () => {
    const { valid, rejected } = parse(
      'reference,name,latitude,longitude\nL1,A,1,1\n,B,,\nL1,C,,\nL4,D,95,0\nL5,E,10,\nL6,F,,\n',
    );
    expect(valid.map((v) => v.reference)).toEqual(['L1', 'L6']);
    expect(rejected).toEqual([
      { line: 3, message: 'reference is empty' },
      { line: 4, message: 'reference L1 already appears on line 2' },
      { line: 5, message: 'latitude must be -90..90 and longitude -180..180' },
      { line: 6, message: 'latitude and longitude go together' },
    ]);
  });

  it('rejects rows whose values the API would refuse: beyond declared lengths or holding control characters', () => {
    const { valid, rejected } = parse(
      `reference,name,address\nL1,${'n'.repeat(201)},\nL2,B,${'a'.repeat(501)}\n${'r'.repeat(101)},C,\nL4,bell\u0007,\nL5,E,"two\nlines"\n`,
    );
    expect(valid.map((v) => v.reference)).toEqual(['L5']);
    expect(rejected.map((r) => r.line)).toEqual([2, 3, 4, 5]);
  });
});
