/**
 * The image worker (issue 44): reads an image's pinned original from S3, asks the processing module for its
 * facts and variants (`processing/`, pure over bytes), writes the variants to S3 and makes the image's move:
 * `ready` with its facts, or `reject` with the reason (the original kept either way). A HEIC the decoder
 * cannot read is `ready` with its facts and `variants_status: pending`: never a failure, never a 5xx to anyone.
 * After an annotation change it renders the variants again (`image.annotated`): the original never changes.
 *
 * In AWS it is its own function (arm64, with sharp's linux-arm64 build), invoked asynchronously by the
 * `image.uploaded` consumer; locally and in tests the consumer calls `processImage` in its own process.
 * Idempotent: an image no longer `processing` is left as it is, so a redelivered event does nothing.
 */
import { randomUUID } from 'node:crypto';
import { config } from '#shared/config';
import { deleteObjects, putObject, readObjectBytes } from '#shared/data/files';
import { getItem } from '#shared/data/repository';
import { scopeOf, systemActor } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import { workerRefusal } from '#shared/engine/lifecycle';
import { changedRecord } from '#shared/engine/record-writes';
import { variantsPrefix } from './completion';
import { images } from './definitions';
import {
  type Annotation,
  type ImageFacts,
  type ImageMediaType,
  inspectImage,
  type Rendering,
  renderVariants,
} from './processing/index';
import { chosenLocation } from './rules/location';

export interface ImageRef {
  org_id: string;
  image_id: string;
}

export type Outcome = 'ready' | 'rejected' | 'rendered' | 'skipped';

const actor = systemActor('image-worker');

/** Each variant written under a render id of its own, so a render never overwrites what is being served. */
const writeVariants = async (image: StoredResource, rendering: Rendering) => {
  if (!rendering.ok) return { variants: null, keys: undefined, reason: rendering.reason };
  const render = randomUUID();
  const keys: Record<string, string> = {};
  const variants: Record<string, { width: number; height: number; size: number }> = {};
  await Promise.all(
    rendering.variants.map(async (variant) => {
      const key = `${variantsPrefix(image)}/${render}/${variant.name}.jpg`;
      await putObject(config.IMAGES_BUCKET, key, variant.media_type, variant.bytes);
      keys[variant.name] = key;
      variants[variant.name] = { width: variant.width, height: variant.height, size: variant.bytes.length };
    }),
  );
  return { variants, keys, reason: null };
};

/** What the worker sets from the variants it wrote (or could not write). */
const variantChanges = ({ variants, reason }: Awaited<ReturnType<typeof writeVariants>>) => ({
  variants_status: variants ? 'ready' : 'pending',
  variants_reason: reason,
  variants,
});

/** The facts stored on a processed image, as the processing module takes them back (a render after annotating). */
const storedFacts = (image: StoredResource): ImageFacts => {
  const a = image.attributes;
  const location = a.location as ImageFacts['location'];
  return {
    media_type: a.media_type as ImageMediaType,
    width: Number(a.width),
    height: Number(a.height),
    captured_at: typeof a.captured_at === 'string' ? a.captured_at : null,
    location: location && {
      latitude: location.latitude,
      longitude: location.longitude,
      accuracy: location.accuracy,
      heading: location.heading,
    },
    device: (a.device as ImageFacts['device']) ?? null,
  };
};

const annotationsOf = (image: StoredResource) => (image.annotations ?? []) as unknown as Annotation[];

/** A move only the worker makes, as its declaration says (`by: 'worker'`): its event names the move. */
const move = async (image: StoredResource, verb: 'ready' | 'reject', next: StoredResource) => {
  const refused = workerRefusal(
    images.lifecycle ?? { states: [], noun: 'image', transitions: {} },
    verb,
    image,
  );
  if (refused.length > 0) throw new Error(`Image ${image.id}: ${refused.join(' ')}`);
  const to = verb === 'ready' ? 'ready' : 'rejected';
  await commit(scopeOf([image.org_id], undefined, actor), [
    {
      replace: next,
      was: image,
      as: to,
      transition: { verb, from: String(image.attributes.status), to },
    },
  ]);
};

const firstProcessing = async (image: StoredResource, bytes: Buffer): Promise<Outcome> => {
  const received = new Date(String(image.attributes.received_at ?? image.meta.created_at));
  const inspection = await inspectImage(bytes, image.attributes.media_type as ImageMediaType, received);
  if (!inspection.ok) {
    const rejected = changedRecord(images, image, {
      attributes: { status: 'rejected', rejection: { reason: inspection.reason, detail: inspection.detail } },
    });
    await move(image, 'reject', rejected);
    return 'rejected';
  }
  const { facts } = inspection;
  const written = await writeVariants(image, await renderVariants(bytes, facts, annotationsOf(image)));
  const ready = {
    ...changedRecord(images, image, {
      attributes: {
        status: 'ready',
        media_type: facts.media_type,
        width: facts.width,
        height: facts.height,
        captured_at: facts.captured_at,
        location: chosenLocation(facts.location, image.declared_location ?? null),
        device: facts.device,
        ...variantChanges(written),
      },
    }),
    ...(written.keys && { variant_keys: written.keys }),
  };
  await move(image, 'ready', ready);
  return 'ready';
};

/** The variants again, with the image's annotations burnt in (after `PUT …/annotations`). */
const renderAgain = async (image: StoredResource, bytes: Buffer): Promise<Outcome> => {
  const written = await writeVariants(
    image,
    await renderVariants(bytes, storedFacts(image), annotationsOf(image)),
  );
  const next = {
    ...changedRecord(images, image, { attributes: variantChanges(written) }),
    ...(written.keys && { variant_keys: written.keys }),
  };
  try {
    await commit(scopeOf([image.org_id], undefined, actor), [{ replace: next, was: image }]);
  } catch (error) {
    // Annotated again meanwhile: that change's own render writes the variants; these go.
    if (error instanceof WriteRefused) {
      await deleteObjects(config.IMAGES_BUCKET, Object.values(written.keys ?? {}));
      return 'skipped';
    }
    throw error;
  }
  // The variants drawn before: nothing names them any more (regenerable, never evidence).
  await deleteObjects(config.IMAGES_BUCKET, Object.values(image.variant_keys ?? {}));
  return 'rendered';
};

/** One image: processed once uploaded, or rendered again once annotated; anything else is left alone. */
export const processImage = async ({ org_id, image_id }: ImageRef): Promise<Outcome> => {
  const image = await getItem<StoredResource>(images.keyOf(org_id, image_id), true);
  if (!image?.object_key) return 'skipped';
  const status = image.attributes.status;
  // Variants pending on a ready image: annotations changed (or a HEIC the decoder could not read, tried again).
  const rerender = status === 'ready' && image.attributes.variants_status === 'pending';
  if (status !== 'processing' && !rerender) return 'skipped';
  const bytes = await readObjectBytes(config.IMAGES_BUCKET, image.object_key);
  if (!bytes) throw new Error(`Image ${image_id}: its original ${image.object_key} is missing`);
  return status === 'processing' ? firstProcessing(image, bytes) : renderAgain(image, bytes);
};

/** The Lambda entry: the consumer's asynchronous invocation's payload is the image's reference. */
export const handler = (event: ImageRef) => processImage(event);
