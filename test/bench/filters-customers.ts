/**
 * Filtered pages of one organisation's 10,000 customer interactions and 10,000 appointments (issue 42,
 * item 1), measured as `filters.ts` measures equipment, each query twice: through the declaration as it is
 * (indexed) and through the same declaration with no filter indexed (how every filter was read before: a
 * filter over the whole partition in its sort's order). Seeded with BatchWriteItem as their creates would
 * store them (`bulkPutCounted`): one a minute, 500 contacts (20 records each), 1 in 100 interactions by
 * letter, 1 in 100 appointments a no-show; times spread over 10,000 hours out of creation order.
 */

import { customerAppointments, customerInteractions } from '#functions/customers/definitions';
import { uuidv7 } from '#shared/data/ids';
import type { ResourceDefinition } from '#shared/engine/declaration';
import { newRecord } from '#shared/engine/record-writes';
import { bulkPutCounted } from '../support/counted-seed';
import { filteredPageFigure } from './filters';

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** The declaration with no filter read through an index: the partition's filter, as before issue 42. */
const unindexed = (definition: ResourceDefinition): ResourceDefinition => {
  const collection = definition.collection;
  if (!collection) return definition;
  const filters = Object.fromEntries(
    Object.entries(collection.filters).map(([name, option]) => {
      if (!option) return [name, option];
      const { index: _, counted: __, ...plain } = option;
      return [name, plain];
    }),
  );
  return { ...definition, collection: { ...collection, filters } } as ResourceDefinition;
};

export const benchCustomerFilters = async (count: number) => {
  const org = uuidv7();
  const start = Date.UTC(2026, 0, 1);
  const contacts = Array.from({ length: Math.ceil(count / 20) }, () => uuidv7());
  const hourOf = (i: number, prime: number) => new Date(start + ((i * prime) % count) * HOUR).toISOString();
  const interactions = Array.from({ length: count }, (_, i) =>
    newRecord(
      customerInteractions,
      org,
      {
        attributes: {
          channel: i % 100 === 37 ? 'letter' : i % 2 === 0 ? 'phone' : 'email',
          direction: 'inbound',
          occurred_at: hourOf(i, 7919),
          summary: `Call ${i}`,
        },
        rels: { contact: contacts[i % contacts.length] ?? null, account: null },
      },
      new Date(start + i * MINUTE),
    ),
  );
  const appointments = Array.from({ length: count }, (_, i) =>
    newRecord(
      customerAppointments,
      org,
      {
        attributes: {
          starts_at: hourOf(i, 7927),
          purpose: `Visit ${i}`,
          status: i % 100 === 37 ? 'no_show' : 'scheduled',
        },
        rels: { contact: contacts[i % contacts.length] ?? null, account: null, assignee: null },
      },
      new Date(start + i * MINUTE),
    ),
  );
  await bulkPutCounted([...interactions, ...appointments]);
  // A day's window: 24 of the 10,000 hours.
  const day = (field: string) => ({
    [`filter[${field}.since]`]: new Date(start + 5000 * HOUR).toISOString(),
    [`filter[${field}.until]`]: new Date(start + 5023 * HOUR).toISOString(),
  });
  const limit = { 'page[limit]': '25' };
  const cursor = { ...limit, 'page[cursor]': '' };
  const contact = { 'filter[contact]': contacts[3] ?? '' };
  const both = async (definition: ResourceDefinition, query: Record<string, string>, pages = 1) =>
    `${await filteredPageFigure(org, unindexed(definition), query, pages)} → ${await filteredPageFigure(org, definition, query, pages)}`;
  const ofInteractions = (query: Record<string, string>, pages = 1) =>
    both(customerInteractions, query, pages);
  const ofAppointments = (query: Record<string, string>, pages = 1) =>
    both(customerAppointments, query, pages);
  return {
    customer_interactions: `${count} (unindexed → indexed)`,
    interaction_contact_cursor: await ofInteractions({ ...cursor, ...contact }),
    interaction_contact_offset: await ofInteractions({ ...limit, ...contact }),
    interaction_letter_cursor_pages_1_2: await ofInteractions({ ...cursor, 'filter[channel]': 'letter' }, 2),
    interaction_letter_offset: await ofInteractions({ ...limit, 'filter[channel]': 'letter' }),
    interaction_phone_cursor_pages_1_2: await ofInteractions({ ...cursor, 'filter[channel]': 'phone' }, 2),
    interaction_day_cursor: await ofInteractions({ ...cursor, ...day('occurred_at') }),
    customer_appointments: `${count} (unindexed → indexed)`,
    appointment_contact_cursor: await ofAppointments({ ...cursor, ...contact }),
    appointment_no_show_cursor_pages_1_2: await ofAppointments({ ...cursor, 'filter[status]': 'no_show' }, 2),
    appointment_no_show_offset: await ofAppointments({ ...limit, 'filter[status]': 'no_show' }),
    appointment_day_cursor: await ofAppointments({ ...cursor, ...day('starts_at') }),
  };
};
