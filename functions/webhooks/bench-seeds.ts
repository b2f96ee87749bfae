/**
 * The routes bench's webhooks (test/bench/seed-routes.ts loads this file by its name; no module of the
 * service imports it): a CRM's subscription to customer events (delivered to the receiver on loopback),
 * before the customers are written; and, last of all, other integrations' subscriptions, which no event
 * written before them is sent to.
 */
import { type BenchSeeds, N, pick, type Step, slug, town } from '../../test/bench/seed-steps';

/** Subscriptions of other integrations (a quarter paused), half of them made by the integration. */
const laterSubscriptions: Step = {
  route: 'createWebhookSubscription',
  count: N - 1,
  into: 'hooks',
  as: (i) => (i % 2 === 0 ? 'bot' : 'admin'),
  data: (i) => ({
    attributes: {
      url: `https://hooks.${pick(['fieldops', 'assetlink', 'gisbridge', 'payrollhub', 'costtrack'], i)}.example/northmere/${slug(town(i))}`,
      event_types: [
        pick(
          [
            'vehicle.deleted',
            'location.deleted',
            'customer-account.deleted',
            'agent.deleted',
            'folder.deleted',
          ],
          i,
        ),
      ],
      enabled: i % 4 !== 3,
      description: `${town(i)} ${pick(['field app', 'GIS sync', 'asset register', 'finance system'], i)}`,
    },
  }),
};

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 150,
      steps: (c) => {
        return [
          {
            route: 'createWebhookSubscription',
            count: 1,
            into: 'hooks',
            data: () => ({
              attributes: {
                url: c.hookUrl,
                event_types: [
                  'customer-contact.created',
                  'customer-interaction.created',
                  'customer-appointment.created',
                ],
                description: 'Customer care CRM',
              },
            }),
          },
        ];
      },
    },
  ],
  last: [laterSubscriptions],
};
