/** An image's vector layer as answered; apart from its writes, so that a read loads no zod. */
import type { StoredResource } from '#shared/data/stored-resource';
import { metaDocument } from '#shared/jsonapi/document';

/** The marks, and whether the variants carry them yet (`pending` while the worker draws them). */
export const annotationsAnswer = (image: StoredResource) =>
  metaDocument({
    annotations: image.annotations ?? [],
    variants_status: image.attributes.variants_status,
  });
