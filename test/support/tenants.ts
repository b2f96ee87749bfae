/** Builds the records a test needs: an organisation with people, and clients holding grants in it. */

import type { StoredResource } from '#shared/data/stored-resource';
import {
  type ClientCredentials,
  createOrganisation,
  createServiceAccountClient,
  createUser,
} from '../../infra/local/records';

let counter = 0;

export interface Tenant {
  org: StoredResource;
  admin: ClientCredentials;
  viewer: ClientCredentials;
  people: StoredResource[];
}

/** `id` is for an organisation whose id configuration names in advance (street-works routing). */
export const newTenant = async (
  name = `Test Organisation ${++counter}`,
  people = 2,
  id?: string,
): Promise<Tenant> => {
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${Date.now().toString(36)}`;
  const org = await createOrganisation(
    { name, slug, description: `${name}, made by a test.` },
    undefined,
    id,
  );
  const [admin, viewer] = await Promise.all([
    createServiceAccountClient(`${name} admin`, [{ org_id: org.id, role: 'admin' }]),
    createServiceAccountClient(`${name} viewer`, [{ org_id: org.id, role: 'viewer' }]),
  ]);
  const created = await Promise.all(
    Array.from({ length: people }, (_, i) =>
      createUser(org.id, { email: `person${i}@${slug}.example`, first_name: `Person${i}`, last_name: name }),
    ),
  );
  return { org, admin, viewer, people: created };
};
