/**
 * Issue 40, item 3: the permission catalogue, the event consumers and the job kinds are assembled by the
 * composition root from the areas' manifests, not edited by hand. One owner per permission; no route may
 * require a permission no area declares; the consumers run in stage order, then area order.
 */
import { describe, expect, it } from 'vitest';
import { permissionCatalogue, permissions } from '#shared/domain/permissions';
import { assemblePermissions, undeclaredPermissions } from '#shared/engine/assembly';
import { eventConsumer, inStageOrder } from '#shared/engine/event-consumers';
import { eventConsumers, jobKinds, routes } from '#shared/routes';

describe('the permission catalogue is assembled from the manifests', () => {
  it('the composition root registers every area’s permissions for the layers (71, each with what it allows)', () => {
    expect(permissions()).toHaveLength(71);
    expect(permissionCatalogue().get('assets:view')).toMatch(/^See equipment/);
  });

  it('refuses two areas declaring the same permission, naming both', () => {
    expect(() =>
      assemblePermissions([
        { name: 'assets', permissions: { 'assets:view': 'See equipment.' } },
        { name: 'places', permissions: { 'assets:view': 'See places.' } },
      ]),
    ).toThrow('assets:view is declared by both assets and places');
  });

  it('refuses a route naming a permission no area declares (and passes every route of today)', () => {
    const catalogue = assemblePermissions([{ name: 'assets', permissions: { 'assets:view': 'See.' } }]);
    expect(
      undeclaredPermissions(
        [
          { id: 'listThings', permission: 'assets:view' },
          { id: 'createThing', permission: 'assets:manaeg' },
          { id: 'updateSelf', permission: 'authenticated', self: 'users:self' },
          { id: 'signInSelf', permission: 'assets:view', party: 'sites:self' },
        ],
        catalogue,
      ),
    ).toEqual(['createThing: assets:manaeg', 'updateSelf: users:self', 'signInSelf: sites:self']);
    expect(undeclaredPermissions(routes, permissionCatalogue())).toEqual([]);
  });
});

describe('the event consumers and job kinds are assembled from the manifests', () => {
  it('the stream runs audit, closing times, grant names, folder paths, the image worker’s and jobs’ start, webhooks and notifications, in that order', () => {
    expect(eventConsumers.map((c) => `${c.stage} ${c.name}`)).toEqual([
      'record audit',
      'keep closing-times',
      'keep grant-names',
      'keep folder-paths',
      'start image-worker',
      'start jobs',
      'deliver webhooks',
      'deliver notifications',
    ]);
  });

  it('orders consumers by stage, then in the order the areas are given', () => {
    const named = (name: string, stage: Parameters<typeof eventConsumer>[2]) =>
      eventConsumer(name, { module: `${name}.ts`, handle: name }, stage);
    expect(
      inStageOrder([
        named('hooks', 'deliver'),
        named('b', 'keep'),
        named('log', 'record'),
        named('a', 'keep'),
      ]).map((c) => c.name),
    ).toEqual(['log', 'b', 'a', 'hooks']);
  });

  it('the worker knows the job kinds the places and exports areas declare', () => {
    expect(jobKinds.map((kind) => kind.name)).toEqual(['location-import', 'export']);
  });
});
