import { defineArea } from '#shared/engine/area';
import { eventConsumer } from '#shared/engine/event-consumers';
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
  consumers: [
    // On `image.uploaded` and `image.annotated`: the image worker (`consumer.ts`, `worker.ts`).
    eventConsumer(
      'image-worker',
      { module: 'functions/images/consumer.ts', handle: 'processUploaded' },
      'start',
    ),
  ],
  resources: [images],
  routes: [
    {
      id: 'downloadImageOriginal',
      method: 'GET',
      path: '/v3/images/{image_id}/original',
      handler: 'functions/images/original.ts',
      answers: { status: 303 },
      // 409 before the original has been uploaded and completed.
      errors: [409],
      permission: 'images:view-original',
      access: { table: 'read', buckets: { images: 'read' } },
      query: [],
    },
    {
      id: 'downloadImageVariant',
      method: 'GET',
      path: '/v3/images/{image_id}/variants/{variant}',
      handler: 'functions/images/variant.ts',
      answers: { status: 302 },
      // 409 while the variants are not ready (processing, rejected, or pending: a HEIC not decoded yet).
      errors: [409],
      permission: 'images:view',
      access: { table: 'read', buckets: { images: 'read' } },
      query: [],
    },
    {
      id: 'getImageAnnotations',
      method: 'GET',
      path: '/v3/images/{image_id}/annotations',
      handler: 'functions/images/get-annotations.ts',
      answers: { status: 200, meta: true },
      permission: 'images:view',
      query: [],
    },
    {
      id: 'replaceImageAnnotations',
      method: 'PUT',
      path: '/v3/images/{image_id}/annotations',
      handler: 'functions/images/put-annotations.ts',
      answers: { status: 200, meta: true },
      permission: 'images:manage',
    },
  ],
});
