/**
 * Every event's name is known only where every area's declarations are loaded (the composition root): an
 * area function loads those its routes reach (`shared/http/served-table.ts`), and there a list of every
 * event would silently lack the others' (a webhook subscription to one refused as unknown).
 */
import { describe, expect, it } from 'vitest';
import { eventNames, typesNamed } from '#shared/data/events';

describe('every event is listed only where every declaration is loaded', () => {
  it('before the composition root has loaded, listing every event (or the types of one) refuses', () => {
    expect(() => eventNames()).toThrow(/not every declaration is loaded/);
    expect(() => typesNamed('vehicle')).toThrow(/not every declaration is loaded/);
  });

  it('once it has, both answer from every area', async () => {
    await import('#shared/routes');
    expect(eventNames()).toEqual(expect.arrayContaining(['vehicle.created', 'webhook-subscription.created']));
    expect(typesNamed('vehicle')).toEqual(['vehicles']);
  });
});
