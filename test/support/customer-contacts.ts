/** Customer contacts in bulk, for collections longer than a page, a file part or a request's export. */

import { customerContacts } from '#functions/customers/definitions';
import { bulkPut } from '#shared/data/bulk';
import { uuidv7 } from '#shared/data/ids';
import { toStoredResource } from '#shared/engine/stored';

/** `count` customer contacts, written straight to the table (every third an owner). */
export const putContacts = (orgId: string, count: number) => {
  const now = new Date().toISOString();
  return bulkPut(
    Array.from({ length: count }, (_, i) =>
      toStoredResource(customerContacts, {
        orgId,
        id: uuidv7(),
        attributes: {
          association: i % 3 === 0 ? 'owner' : 'occupier',
          first_name: `First${i}`,
          last_name: `Last${String(i).padStart(5, '0')}`,
        },
        meta: { created_at: now, updated_at: now },
        rels: { accounts: [] },
      }),
    ) as unknown as Record<string, unknown>[],
  );
};
