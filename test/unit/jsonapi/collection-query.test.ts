import { describe, expect, it } from 'vitest';
import {
  type CollectionOptions,
  featuresMeta,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  parseCollectionQuery,
  parseResourceQuery,
} from '#shared/jsonapi/collection-query';
import { ValidationError } from '#shared/jsonapi/errors';

const options: CollectionOptions = {
  filters: {
    serial: { kind: 'eq', path: 'attributes.serial' },
    enabled: { kind: 'eq', path: 'attributes.enabled', type: 'boolean' },
    created_at: { kind: 'time', path: 'meta.created_at' },
    location: { kind: 'box', path: 'attributes.location' },
  },
  sorts: { serial: { path: 'attributes.serial', index: 'lsi1' }, created_at: { path: 'meta.created_at' } },
  defaultSort: 'created_at',
  includes: ['model.manufacturer', 'vehicle'],
};

const rejects = (query: Record<string, string>, parameter: string) => {
  try {
    parseCollectionQuery(query, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).toErrorObject()).toMatchObject({
      status: '400',
      source: { parameter },
    });
    return;
  }
  throw new Error(`expected ${JSON.stringify(query)} to be rejected`);
};

describe('collection query features', () => {
  it('filter[f]: several equality filters combine with AND', () => {
    const q = parseCollectionQuery({ 'filter[serial]': 'SN-1', 'filter[enabled]': 'true' }, options);
    expect(q.filters).toEqual([
      { field: 'serial', path: 'attributes.serial', op: 'eq', value: 'SN-1' },
      { field: 'enabled', path: 'attributes.enabled', op: 'eq', value: true },
    ]);
  });

  it('filter[f]: an undeclared field is a 400 naming the parameter', () => {
    rejects({ 'filter[colour]': 'red' }, 'filter[colour]');
  });

  it('filter[f]: a filter declared required is a 400 naming it when absent, and taken when sent', () => {
    const search: CollectionOptions = {
      ...options,
      filters: {
        ...options.filters,
        prefix: { kind: 'eq', path: 'search.prefix', required: true, minLength: 2 },
      },
    };
    expect(() => parseCollectionQuery({ 'filter[serial]': 'SN-1' }, search)).toThrow(
      expect.objectContaining({
        detail: 'filter[prefix] is required.',
        source: { parameter: 'filter[prefix]' },
      }),
    );
    expect(parseCollectionQuery({ 'filter[prefix]': 'ab' }, search).filters).toEqual([
      { field: 'prefix', path: 'search.prefix', op: 'eq', value: 'ab' },
    ]);
  });

  it('filter[f]: a value shorter than the declared minLength, spaces around it not counted, is a 400', () => {
    const search: CollectionOptions = {
      ...options,
      filters: { prefix: { kind: 'eq', path: 'search.prefix', minLength: 2 } },
    };
    for (const short of ['a', ' a ']) {
      expect(() => parseCollectionQuery({ 'filter[prefix]': short }, search)).toThrow(
        expect.objectContaining({ source: { parameter: 'filter[prefix]' } }),
      );
    }
  });

  it('filter[f]: a boolean filter takes only true or false', () => {
    rejects({ 'filter[enabled]': 'yes' }, 'filter[enabled]');
  });

  it('filter[f.since]/[f.until]: a time window, normalised to UTC', () => {
    const q = parseCollectionQuery(
      {
        'filter[created_at.since]': '2026-01-01T00:00:00+01:00',
        'filter[created_at.until]': '2026-02-01T00:00:00Z',
      },
      options,
    );
    expect(q.filters).toEqual([
      { field: 'created_at', path: 'meta.created_at', op: 'since', value: '2025-12-31T23:00:00.000Z' },
      { field: 'created_at', path: 'meta.created_at', op: 'until', value: '2026-02-01T00:00:00.000Z' },
    ]);
  });

  it('filter[f.since]: a value that is not an ISO 8601 date-time is a 400', () => {
    rejects({ 'filter[created_at.since]': 'yesterday' }, 'filter[created_at.since]');
    rejects({ 'filter[created_at.until]': '2026-13-45T00:00:00Z' }, 'filter[created_at.until]');
  });

  it('filter[f.since]: time operators only apply to time fields', () => {
    rejects({ 'filter[serial.since]': '2026-01-01T00:00:00Z' }, 'filter[serial.since]');
  });

  it('filter[f.box.*]: both corners give one bounding-box clause', () => {
    const q = parseCollectionQuery(
      { 'filter[location.box.bottom_left]': '51.2,-0.5', 'filter[location.box.top_right]': '51.7,0.3' },
      options,
    );
    expect(q.filters).toEqual([
      {
        field: 'location',
        path: 'attributes.location',
        op: 'box',
        bottomLeft: { latitude: 51.2, longitude: -0.5 },
        topRight: { latitude: 51.7, longitude: 0.3 },
      },
    ]);
  });

  it('filter[f.box.*]: both corners are required together', () => {
    rejects({ 'filter[location.box.bottom_left]': '51.2,-0.5' }, 'filter[location.box.top_right]');
    rejects({ 'filter[location.box.top_right]': '51.2,-0.5' }, 'filter[location.box.bottom_left]');
  });

  it('filter[f.box.*]: malformed or out-of-range coordinates are a 400', () => {
    const other = { 'filter[location.box.top_right]': '51.7,0.3' };
    for (const bad of ['51.2', 'a,b', '51.2,-0.5,3', '91,0', '0,181', '']) {
      rejects({ 'filter[location.box.bottom_left]': bad, ...other }, 'filter[location.box.bottom_left]');
    }
    rejects(
      { 'filter[location.box.bottom_left]': '52,0', 'filter[location.box.top_right]': '51,1' },
      'filter[location.box.bottom_left]',
    );
  });

  it('include: dotted paths, and their prefixes, are accepted', () => {
    expect(parseCollectionQuery({ include: 'model,model.manufacturer,vehicle' }, options).include).toEqual([
      ['model'],
      ['model', 'manufacturer'],
      ['vehicle'],
    ]);
  });

  it('include: an unknown path is a 400 with source.parameter include', () => {
    rejects({ include: 'vehicle,owner' }, 'include');
    rejects({ include: 'model.categories' }, 'include');
  });

  it('sort: only the first field of a comma list applies; - is descending', () => {
    expect(parseCollectionQuery({ sort: '-serial,created_at' }, options).sort).toEqual({
      field: 'serial',
      path: 'attributes.serial',
      index: 'lsi1',
      descending: true,
    });
  });

  it('sort: an unknown field is a 400; none gives the default', () => {
    rejects({ sort: 'colour' }, 'sort');
    expect(parseCollectionQuery({}, options).sort.field).toBe('created_at');
  });

  it('limit/offset: defaults, and page[...] wins over the bare form', () => {
    expect(parseCollectionQuery({}, options).page).toEqual({ limit: PAGE_SIZE_DEFAULT, offset: 0 });
    expect(
      parseCollectionQuery({ limit: '5', offset: '10', 'page[limit]': '7', 'page[offset]': '14' }, options)
        .page,
    ).toEqual({ limit: 7, offset: 14 });
  });

  it('limit < 1, offset < 0, non-integers and a limit above the maximum are 400s', () => {
    rejects({ limit: '0' }, 'limit');
    rejects({ offset: '-1' }, 'offset');
    rejects({ limit: '2.5' }, 'limit');
    rejects({ 'page[offset]': 'x' }, 'page[offset]');
    rejects({ 'page[limit]': String(PAGE_SIZE_MAX + 1) }, 'page[limit]');
  });

  it('offset: any integer up to 2^53 − 1 is a page (beyond the end is an empty one); beyond is a 400', () => {
    for (const offset of ['2147483647', '2147483648', '4294967296', '9007199254740991', '0002147483648'])
      expect(parseCollectionQuery({ offset }, options).page.offset).toBe(Number(offset));
    expect(parseCollectionQuery({ offset: '-0' }, options).page.offset).toBe(0);
    rejects({ offset: '9007199254740992' }, 'offset');
    rejects({ 'page[offset]': '9007199254740993' }, 'page[offset]');
    rejects({ offset: '9'.repeat(400) }, 'offset');
    rejects({ limit: '2147483648' }, 'limit');
    rejects({ 'page[limit]': '9'.repeat(400) }, 'page[limit]');
  });

  it('an unknown query parameter is a 400 naming it', () => {
    rejects({ colour: 'red' }, 'colour');
  });

  // Query objects are built without a prototype (json-api-handler.ts): `__proto__` is a name like any other.
  const named = (name: string, value: string) => Object.fromEntries([[name, value]]);

  it('sort and filter names are own fields only: prototype-chain names are unknown, a 400', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
      rejects({ sort: name }, 'sort');
      rejects({ sort: `-${name}` }, 'sort');
      rejects(named(`filter[${name}]`, 'x'), `filter[${name}]`);
      rejects(named(`filter[${name}.since]`, '2026-01-01T00:00:00Z'), `filter[${name}.since]`);
      rejects({ include: name }, 'include');
      rejects(named(name, '1'), name);
    }
  });

  it('single-resource reads take include only', () => {
    expect(parseResourceQuery({ include: 'vehicle' }, ['vehicle'])).toEqual([['vehicle']]);
    expect(() => parseResourceQuery({ sort: 'name' }, ['vehicle'])).toThrow(ValidationError);
  });
});

describe('meta.features', () => {
  it('lists the filter, include and sort options the parsers accept, every include prefix among them, the include options also at include', () => {
    expect(featuresMeta(options)).toEqual({
      params: {
        filter: {
          options: [
            'serial',
            'enabled',
            'created_at.since',
            'created_at.until',
            'location.box.bottom_left',
            'location.box.top_right',
          ],
        },
        include: { options: ['model', 'model.manufacturer', 'vehicle'] },
        sort: { options: ['serial', 'created_at'] },
      },
      include: { options: ['model', 'model.manufacturer', 'vehicle'] },
    });
  });

  it('every listed include and sort is accepted, and the include error names the same list', () => {
    const { params } = featuresMeta(options);
    for (const include of params.include.options) {
      expect(parseCollectionQuery({ include }, options).include).toEqual([include.split('.')]);
    }
    for (const sort of params.sort.options) {
      expect(parseCollectionQuery({ sort: `-${sort}` }, options).sort.field).toBe(sort);
    }
    try {
      parseCollectionQuery({ include: 'owner' }, options);
      throw new Error('expected a 400');
    } catch (error) {
      expect((error as ValidationError).detail).toBe(
        `Unknown include path owner; options: ${params.include.options.join(', ')}.`,
      );
    }
  });
});
