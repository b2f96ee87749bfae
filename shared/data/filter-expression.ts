/** Builds DynamoDB filter expressions from parsed collection filters. Pure: unit-tested on its own. */
import type { FilterClause } from './collection-query';

export interface Expression {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

export const buildFilterExpression = (filters: readonly FilterClause[]): Expression | null => {
  if (filters.length === 0) return null;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const name = (segment: string) => {
    const placeholder = `#n${Object.keys(names).length}`;
    const existing = Object.entries(names).find(([, v]) => v === segment)?.[0];
    if (existing) return existing;
    names[placeholder] = segment;
    return placeholder;
  };
  const path = (p: string) => p.split('.').map(name).join('.');
  const value = (v: unknown) => {
    const placeholder = `:v${Object.keys(values).length}`;
    values[placeholder] = v;
    return placeholder;
  };
  const clauses = filters.map((f) => {
    switch (f.op) {
      case 'eq':
        return `${path(f.path)} = ${value(f.value)}`;
      case 'since':
        return `${path(f.path)} >= ${value(f.value)}`;
      case 'until':
        return `${path(f.path)} <= ${value(f.value)}`;
      case 'begins':
        return `begins_with(${path(f.path)}, ${value(f.value)})`;
      default: {
        const lat = `${path(f.path)}.${name('latitude')}`;
        const lng = `${path(f.path)}.${name('longitude')}`;
        const latitude = `${lat} BETWEEN ${value(f.bottomLeft.latitude)} AND ${value(f.topRight.latitude)}`;
        // A box whose west edge lies east of its east edge crosses the antimeridian.
        const longitude =
          f.bottomLeft.longitude <= f.topRight.longitude
            ? `${lng} BETWEEN ${value(f.bottomLeft.longitude)} AND ${value(f.topRight.longitude)}`
            : `(${lng} >= ${value(f.bottomLeft.longitude)} OR ${lng} <= ${value(f.topRight.longitude)})`;
        return `(${latitude} AND ${longitude})`;
      }
    }
  });
  return { expression: clauses.join(' AND '), names, values };
};
