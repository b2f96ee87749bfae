/**
 * An image's vector layer (issue 44): arrows, boxes, text and blur regions, in 0..1 fractions of the width and
 * height, burnt only into the variants; the original is never touched. A PUT replaces the layer, marks the
 * variants pending (none is served while the new ones are made: a blur region added to hide a face must
 * never be missed by a variant made before it) and emits `image.annotated`, on which the worker renders the
 * variants again.
 */
import * as z from 'zod';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { changedRecord, commitChecked } from '#shared/engine/record-writes';
import { ConflictError } from '#shared/jsonapi/errors';
import { parseDocument } from '#shared/jsonapi/request-document';
import { images } from './definitions';

/** At most this many marks on one image. */
export const MAX_ANNOTATIONS = 100;

const fraction = () => z.number().min(0).max(1);
const colour = () =>
  z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { error: 'colour must be #rrggbb' })
    .optional();
/** A region (a box or a blur) that stays within the picture. */
const region = <K extends 'box' | 'blur'>(kind: K) =>
  z
    .strictObject({
      kind: z.literal(kind),
      x: fraction(),
      y: fraction(),
      width: z.number().gt(0).max(1),
      height: z.number().gt(0).max(1),
      ...(kind === 'box' && { colour: colour() }),
    })
    .refine((r) => r.x + r.width <= 1 + 1e-9 && r.y + r.height <= 1 + 1e-9, {
      error: 'the region must lie within the picture: x + width and y + height at most 1',
    });

const annotation = () =>
  z.union([
    z.strictObject({
      kind: z.literal('arrow'),
      x: fraction(),
      y: fraction(),
      x2: fraction(),
      y2: fraction(),
      colour: colour(),
    }),
    region('box'),
    region('blur'),
    z.strictObject({
      kind: z.literal('text'),
      x: fraction(),
      y: fraction(),
      text: z.string().trim().min(1).max(200),
      colour: colour(),
    }),
  ]);

export const annotationsDocument = z.lazy(() =>
  z.strictObject({
    meta: z.strictObject({ annotations: z.array(annotation()).max(MAX_ANNOTATIONS) }),
  }),
);

export const replaceAnnotations = async (scope: Scope, image: StoredResource, body: unknown) => {
  const { meta } = parseDocument(annotationsDocument, body);
  if (image.attributes.status !== 'ready')
    throw new ConflictError(
      `An image is annotated once it is ready; this one is ${String(image.attributes.status)}.`,
    );
  const next = {
    ...changedRecord(images, image, {
      attributes: { variants_status: 'pending', variants_reason: 'The annotations are being drawn.' },
    }),
    annotations: meta.annotations,
  };
  await commitChecked(scope, [{ replace: next, was: image, as: 'annotated' }], []);
  return next;
};
