/**
 * The handler of every CDM write route: read the record the path names and its scheme's CDM file (the
 * caller's duty-holder roles), apply the write, answer with the resulting resource (201 with `Location`
 * for creates) or 204 when nothing is left to show.
 */

import { signedIn } from '#shared/auth/signed-in';
import type { StoredResource } from '#shared/data/stored-resource';
import type { ResourceDefinition } from '#shared/engine/resource-definition';
import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created, Reply } from '#shared/http/reply';
import { type RouteId, routeById } from '#shared/http/route-table';
import { type CdmWrite, withCdmFile } from './cdm-file';

export interface CdmRoute {
  /** The type of the record the path names, and the path parameter holding its id. */
  path: [ResourceDefinition, string];
  write: (input: CdmWrite) => Promise<StoredResource | undefined>;
  /** The type answered with; `created` answers 201 with `Location`. */
  answer?: ResourceDefinition;
  created?: true;
}

export const cdmHandler = (
  routeId: RouteId,
  { path: [definition, param], write, answer, created: isCreate }: CdmRoute,
) =>
  // Routes of several paths share this handler: the record's id parameter is named by the caller.
  jsonApiHandler(routeById(routeId), async (request) => {
    const { scope, principal, body } = request;
    const { record, file } = await withCdmFile(scope, definition, request.params[param] ?? '', principal);
    const result = await write({ scope, record, file, body, principal: signedIn(principal) });
    if (!result) return new Reply(204, undefined);
    const type = answer ?? definition;
    const document = await resourceResponse(request, type, result);
    return isCreate ? created(document) : document;
  });
