/**
 * Runs the image worker on `image.uploaded` (and `image.annotated`: the variants rendered again). In AWS an
 * asynchronous invocation of the worker function named by `IMAGE_WORKER_FUNCTION`, so the stream never waits
 * on pixels and the stream's function carries no image library; locally and in tests, where none is named,
 * the same module runs in this process. Idempotent by state: a redelivered event finds the image moved on.
 */
import { config } from '#shared/config';
import type { StoredEvent } from '#shared/data/events';
import { invokeAsync } from '#shared/data/lambda';

/**
 * The worker's module, named by a variable so that no bundler follows it into the stream function: in AWS
 * the worker is its own function, with sharp's linux-arm64 build.
 */
const WORKER_MODULE = './worker.ts';

/** The `image-worker` consumer (`area.ts`). */
export const processUploaded = async (event: StoredEvent): Promise<void> => {
  if (event.event !== 'image.uploaded' && event.event !== 'image.annotated') return;
  const ref = { org_id: event.org_id, image_id: event.subject.id };
  if (config.IMAGE_WORKER_FUNCTION) {
    await invokeAsync(config.IMAGE_WORKER_FUNCTION, ref);
    return;
  }
  const worker: typeof import('./worker') = await import(new URL(WORKER_MODULE, import.meta.url).href);
  await worker.processImage(ref);
};
