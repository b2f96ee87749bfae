/**
 * Filtered pages of one organisation's 10,000 users and 10,000 qualification awards (issue 42, item 1),
 * measured as `filters.ts` measures equipment: the items DynamoDB read and the calls each page made.
 * Seeded with BatchWriteItem as their creates would store them (`bulkPutCounted`): one user a minute, 1 in
 * 100 suspended, 1 in 50 holding job role A; one award a minute, 1 in 100 expired, 100 awards a person, 1 in
 * 20 of qualification type A, expiry dates spread over 10,000 days (so a 30-day window matches 30).
 */

import { newUserRecord } from '#functions/people/joining';
import { users } from '#functions/people/users';
import { qualificationAwards } from '#functions/qualifications/definitions';
import { uuidv7 } from '#shared/data/ids';
import { newRecord } from '#shared/engine/record-writes';
import { indexed } from '#shared/engine/stored';
import { bulkPutCounted } from '../support/counted-seed';
import { filteredPageFigure } from './filters';

const MINUTE = 60_000;
const DAY = 86_400_000;

export const benchPeopleFilters = async (count: number) => {
  const org = uuidv7();
  const start = Date.UTC(2026, 0, 1);
  const [roleA, roleB, typeA, typeB] = [uuidv7(), uuidv7(), uuidv7(), uuidv7()];
  const people = Array.from({ length: count }, (_, i) => {
    const at = new Date(start + i * MINUTE);
    const user = newUserRecord(org, uuidv7(at.getTime()), at, {
      email: `worker${i}@bench.example`,
      first: 'Worker',
      last: `Name${String((i * 7919) % count).padStart(6, '0')}`,
      jobRole: i % 50 === 7 ? roleA : roleB,
    });
    const status = i % 100 === 37 ? 'suspended' : 'active';
    return indexed(users, { ...user, attributes: { ...user.attributes, status } });
  });
  const personIds = people.slice(0, Math.ceil(count / 100)).map((user) => user.id);
  const awards = Array.from({ length: count }, (_, i) =>
    newRecord(
      qualificationAwards,
      org,
      {
        attributes: {
          status: i % 100 === 37 ? 'expired' : 'valid',
          issued_at: '2025-01-01',
          expires_at: new Date(start + ((i * 7919) % count) * DAY).toISOString().slice(0, 10),
          number: `CARD-${i}`,
          notes: null,
        },
        rels: {
          person: personIds[i % personIds.length] ?? null,
          qualification_type: i % 20 === 3 ? typeA : typeB,
        },
      },
      new Date(start + i * MINUTE),
    ),
  );
  await bulkPutCounted([...people, ...awards]);
  const since = new Date(start + (count - 24 * 60) * MINUTE).toISOString();
  const window = {
    'filter[expires_at.since]': new Date(start + 5000 * DAY).toISOString(),
    'filter[expires_at.until]': new Date(start + 5029 * DAY).toISOString(),
  };
  const limit = { 'page[limit]': '25' };
  const cursor = { ...limit, 'page[cursor]': '' };
  const ofUsers = (query: Record<string, string>, pages = 1) => filteredPageFigure(org, users, query, pages);
  const ofAwards = (query: Record<string, string>, pages = 1) =>
    filteredPageFigure(org, qualificationAwards, query, pages);
  return {
    users: count,
    user_status_offset: await ofUsers({ ...limit, 'filter[status]': 'suspended', sort: 'created_at' }),
    user_status_cursor_pages_1_2: await ofUsers(
      { ...cursor, 'filter[status]': 'suspended', sort: 'created_at' },
      2,
    ),
    user_status_by_last_name_offset: await ofUsers({ ...limit, 'filter[status]': 'suspended' }),
    // The common list (active users by the default sort, last name): the index keeps creation order.
    user_active_by_last_name_offset: await ofUsers({ ...limit, 'filter[status]': 'active' }),
    user_active_by_last_name_cursor_pages_1_2: await ofUsers({ ...cursor, 'filter[status]': 'active' }, 2),
    user_email_offset: await ofUsers({ ...limit, 'filter[email]': `worker${count / 2}@bench.example` }),
    user_job_role_cursor_pages_1_2: await ofUsers(
      { ...cursor, 'filter[job_role]': roleA, sort: 'created_at' },
      2,
    ),
    user_created_since_cursor: await ofUsers({
      ...cursor,
      'filter[created_at.since]': since,
      sort: 'created_at',
    }),
    awards: count,
    award_status_offset: await ofAwards({ ...limit, 'filter[status]': 'expired' }),
    award_status_cursor_pages_1_2: await ofAwards({ ...cursor, 'filter[status]': 'expired' }, 2),
    award_person_offset: await ofAwards({ ...limit, 'filter[person]': personIds[3] ?? '' }),
    award_person_cursor_pages_1_2: await ofAwards({ ...cursor, 'filter[person]': personIds[3] ?? '' }, 2),
    award_type_cursor_pages_1_2: await ofAwards({ ...cursor, 'filter[qualification_type]': typeA }, 2),
    award_type_and_number_cursor: await ofAwards({
      ...cursor,
      'filter[qualification_type]': typeA,
      'filter[number]': 'CARD-4003',
    }),
    award_valid_by_expiry_cursor: await ofAwards({
      ...cursor,
      'filter[status]': 'valid',
      sort: 'expires_at',
    }),
    award_expiry_window_by_expiry_cursor: await ofAwards({ ...cursor, ...window, sort: 'expires_at' }),
    award_expiry_window_offset: await ofAwards({ ...limit, ...window }),
    award_created_since_cursor: await ofAwards({ ...cursor, 'filter[created_at.since]': since }),
    award_number_alone: await ofAwards({ ...cursor, 'filter[number]': 'CARD-4003' }),
  };
};
