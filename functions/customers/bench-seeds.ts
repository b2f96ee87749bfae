/**
 * The routes bench's customers (test/bench/seed-routes.ts loads this file by its name; no module of the
 * service imports it): accounts, contacts, interactions and appointments (their events go to the CRM's
 * webhook).
 */
import {
  at,
  type BenchSeeds,
  FIRST,
  idsOf,
  LAST,
  many,
  one,
  pick,
  STREETS,
  town,
} from '../../test/bench/seed-steps';

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 160,
      steps: (c) => {
        const ids = idsOf(c);
        const user = (i: number) => ids('users', i);
        return [
          {
            route: 'createCustomerAccount',
            data: (i) => {
              const kind = pick(['domestic', 'domestic', 'commercial', 'public'], i);
              const place =
                kind === 'public'
                  ? ['Primary School', 'Health Centre', 'Library']
                  : ['Creamery', 'Hotel', 'Brewery'];
              return {
                attributes: {
                  name:
                    kind === 'domestic'
                      ? `${3 + i * 2} ${pick(STREETS, i)}, ${town(i)}`
                      : `${town(i)} ${pick(place, i)}`,
                  reference: `ACC-${700_100 + i * 17}`,
                  kind,
                },
              };
            },
          },
          {
            route: 'createCustomerContact',
            data: (i) => ({
              attributes: {
                association: pick(['occupier', 'owner', 'tenant', 'landlord', 'agent', 'other'], i),
                salutation: pick(['Mr', 'Mrs', 'Ms', 'Dr', 'Mx', 'Miss', 'Prof'], i),
                first_name: pick(FIRST, i),
                last_name: pick(LAST, i),
                email: `${pick(FIRST, i)}.${pick(LAST, i)}${i}@mail.example`.toLowerCase(),
                telephone: `01539 ${720_000 + i * 317}`,
              },
              relationships: {
                accounts: many('customer-accounts', [
                  ids('customer-accounts', i),
                  ids('customer-accounts', i % 4 ? i : i + 1),
                ]),
              },
            }),
          },
          {
            route: 'createCustomerInteraction',
            data: (i) => ({
              attributes: {
                channel: pick(['phone', 'email', 'visit', 'letter', 'sms'], i),
                direction: i % 3 === 0 ? 'outbound' : 'inbound',
                occurred_at: at(i, 5, '2025-08-04T09:15:00Z'),
                summary: `${pick(['Asked when the road reopens', 'Reported low water pressure', 'Complained about noise before 8 am', 'Asked for an interruption notice', 'Reported a leak in the footway'], i)} (${pick(STREETS, i)}, ${town(i)}).`,
                outcome: pick(
                  [
                    'Explained the programme',
                    'Engineer visit booked',
                    'Passed to the site manager',
                    'Letter sent',
                  ],
                  i,
                ),
              },
              relationships: {
                contact: one('customer-contacts', ids('customer-contacts', i)),
                account: one('customer-accounts', ids('customer-accounts', i)),
              },
            }),
          },
          {
            route: 'createCustomerAppointment',
            data: (i) => ({
              attributes: {
                starts_at: at(i, 3, '2025-10-06T09:00:00Z'),
                ends_at: at(i, 3, '2025-10-06T10:00:00Z'),
                purpose: pick(
                  ['Internal stop tap survey', 'Meter exchange', 'Pressure logging', 'Lead pipe inspection'],
                  i,
                ),
                location: `${3 + i * 2} ${pick(STREETS, i)}, ${town(i)}`,
                status: pick(['scheduled', 'completed', 'scheduled', 'cancelled', 'no_show'], i),
              },
              relationships: {
                contact: one('customer-contacts', ids('customer-contacts', i)),
                account: one('customer-accounts', ids('customer-accounts', i)),
                assignee: one('users', user(i)),
              },
            }),
          },
        ];
      },
    },
  ],
};
