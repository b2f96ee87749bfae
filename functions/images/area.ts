import { defineArea } from '#shared/engine/area';
import { images } from './definitions';

export const area = defineArea('images', {
  tag: 'Images',
  feature: { description: 'Photo evidence: images with their capture time, place and device, and variants.' },
  permissions: {
    'images:view': 'See images (whose subject one may also see) and their variants.',
    'images:manage': 'Upload, caption, annotate, pair and delete images.',
    'images:view-original':
      'Download originals (with their metadata) and see every image’s coordinates, restricted ones too.',
  },
  resources: [images],
  routes: [
    {
      id: 'downloadImageOriginal',
      method: 'GET',
      path: '/v3/images/{image_id}/original',
      handler: 'functions/images/original.ts',
      answers: { status: 303 },
      permission: 'images:view-original',
      access: { table: 'read', buckets: { documents: 'read' } },
      query: [],
    },
    {
      id: 'downloadImageVariant',
      method: 'GET',
      path: '/v3/images/{image_id}/variants/{name}',
      handler: 'functions/images/variant.ts',
      answers: { status: 302 },
      permission: 'images:view',
      access: { table: 'read', buckets: { documents: 'read' } },
      query: [],
    },
  ],
});
