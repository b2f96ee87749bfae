/**
 * The routes bench's places (test/bench/seed-routes.ts loads this file by its name; no module of the service
 * imports it): survey imports over 64 KiB (jobs, started early beside the exports), locations (some made by
 * the integration), properties on seeded streets, import templates and small imports.
 */
import { at, type BenchSeeds, idsOf, one, pick, STREETS, slug, town, two } from '../../test/bench/seed-steps';

const COLUMNS = [
  { reference: 'Site Code', name: 'Site Name', address: 'Address', latitude: 'Lat', longitude: 'Long' },
  { reference: 'Asset ID', name: 'Description', latitude: 'Northing (lat)', longitude: 'Easting (lon)' },
  { reference: 'Ref', name: 'Name', address: 'Postal address' },
] as const;

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 20,
      steps: (_c) => {
        // Long rows (site access notes), so that 150 of them pass 64 KiB. Each survey has its own sites: two
        // imports of the same references running at once would race (see the issue 19 report).
        const access =
          'no vehicles over 7.5 t on the approach; ring the site manager before arriving. '.repeat(4);
        const survey = (i: number) =>
          [
            'reference,name,address,latitude,longitude',
            ...Array.from(
              { length: 150 },
              (_, k) =>
                `NW-SV${two(i)}-${String(k + 1).padStart(3, '0')},"${town(k)} site ${k + 1}","Access from ${pick(STREETS, k)}; key safe code held by the control room; gate locked 18:00-07:00; ${access}",${(54.2 + (k % 40) / 100).toFixed(3)},${(-2.9 + (k % 25) / 50).toFixed(3)}`,
            ),
          ].join('\n');
        return [
          {
            route: 'createLocationImport',
            count: 5,
            status: 202,
            into: 'jobs',
            data: (i) => ({ attributes: { csv: survey(i), file_name: `site-survey-${two(i)}.csv` } }),
          },
        ];
      },
    },
    {
      at: 80,
      steps: (_c) => {
        return [
          // Places; some locations made by the integration (audit entries name a service account).
          {
            route: 'createLocation',
            as: (i) => (i % 5 === 4 ? 'bot' : 'admin'),
            data: (i) => ({
              attributes: {
                name: `${town(i)} ${pick(['depot', 'pumping station', 'service reservoir', 'treatment works', 'valve house', 'compound'], i)}`,
                reference: `NW-LOC-${two(i)}`,
                address: `${1 + ((i * 7) % 90)} ${pick(STREETS, i)}, ${town(i)}, Cumbria`,
                location: { latitude: 54.05 + (i % 10) * 0.09, longitude: -3.4 + Math.floor(i / 10) * 0.45 },
              },
            }),
          },
        ];
      },
    },
    {
      at: 110,
      steps: (c) => {
        const ids = idsOf(c);
        const importCsv = (i: number) => {
          const header: string[] =
            i % 2 === 0
              ? Object.values(pick(COLUMNS, i))
              : ['reference', 'name', 'address', 'latitude', 'longitude'];
          const row = (k: number) =>
            [
              `NW-IMP-${two(i)}-${k + 1}`,
              `${town(i + k)} ${pick(['chamber', 'hydrant', 'washout', 'air valve'], k)}`,
              `${pick(STREETS, k + i)}, ${town(i + k)}`,
              (54.1 + k * 0.01).toFixed(4),
              (-2.8 - k * 0.01).toFixed(4),
            ].slice(0, header.length);
          const rows = [header, ...Array.from({ length: 2 + (i % 3) }, (_, k) => row(k))];
          return rows.map((r) => r.map((v) => `"${v}"`).join(',')).join('\n');
        };
        return [
          {
            route: 'createProperty',
            count: 10,
            data: (i) => ({
              attributes: {
                name: `${2 + i * 3} ${pick(STREETS, i + 3)}, ${town(i + 3)}`,
                uprn: String(100_110_000_000 + i * 4_177),
                postcode: `LA${(i % 9) + 1} ${(i % 9) + 1}${pick(['AB', 'DQ', 'HT', 'NW', 'RS'], i)}`,
                location: { latitude: 54.33 + (i % 4) * 0.003, longitude: -2.75 + i * 0.002 },
              },
              relationships: { street: one('streets', ids('streets', i + 3)) },
            }),
          },
          {
            route: 'createImportTemplate',
            data: (i) => ({
              attributes: {
                name: `${town(i)} ${pick(['council site list', 'asset register extract', 'contractor compounds'], i)}`,
                target: 'locations',
                columns: pick(COLUMNS, i),
              },
            }),
          },
          {
            // Small files, imported within the request; the even ones through a template of their columns.
            route: 'createLocationImport',
            data: (i) => ({
              attributes: {
                csv: importCsv(i),
                file_name: `${slug(town(i))}-sites-${at(i).slice(0, 10)}.csv`,
              },
              ...(i % 2 === 0 && {
                relationships: { import_template: one('import-templates', ids('import-templates', i)) },
              }),
            }),
          },
        ];
      },
    },
  ],
};
