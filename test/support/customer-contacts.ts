/** Customer contacts in bulk, for collections longer than a page, a file part or a request's export. */

import { customerContacts } from '#functions/customers/definitions';
import { uuidv7 } from '#shared/data/ids';
import { toStoredResource } from '#shared/engine/stored';
import { bulkPutCounted } from './counted-seed';

/**
 * `count` customer contacts, written straight to the table (every third an owner), with the counts their
 * creates keep (`filter[association]` totals from its count).
 */
export const putContacts = (orgId: string, count: number) => {
  const now = new Date().toISOString();
  return bulkPutCounted(
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
    ),
  );
};
