import { defineArea } from '#shared/engine/area';
import { eventAttributes } from './event-attributes';

export const area = defineArea('events', {
  tag: 'Events',
  resources: [],
  answered: { events: eventAttributes },
  routes: [
    {
      id: 'listEvents',
      method: 'GET',
      path: '/v3/orgs/{org_id}/events',
      handler: 'functions/events/list-events.ts',
      answers: { status: 200, collection: 'events', cursor: true },
      // Any member of the organisation; each event is shown only to callers who may view its subject.
      permission: 'authenticated',
      query: ['cursor', 'page[limit]', 'filter[type]', 'filter[subject_id]'],
    },
  ],
});
