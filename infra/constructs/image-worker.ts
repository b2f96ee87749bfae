/**
 * The image worker (issue 44): the function that turns an accepted original into its facts and variants,
 * invoked asynchronously by the event consumer on `image.uploaded` (and on changed annotations) by the
 * name `IMAGE_WORKER_FUNCTION` gives. It runs native code over untrusted bytes, so it gets the least:
 * reading originals, writing and deleting variants (nothing else in the images bucket, no other bucket), and the
 * table, for the `ready`/`reject` moves and their events. 1,024 MB: a 12-megapixel JPEG or HEIC peaks far
 * below it (`npm run bench`, part `images`); 60 s: a few seconds' work at that size's share of a vCPU.
 * Lambda retries a failed asynchronous invocation twice; the worker's moves are idempotent.
 */
import { Duration } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { IMAGE_ORIGINALS_PREFIX, IMAGE_VARIANTS_PREFIX } from '#shared/data/table-definition';
import { bundleImageWorker, IMAGE_WORKER_ENTRY } from '../image-worker-bundle';
import { WorkerFunction } from './area-function';

export interface ImageWorkerProps {
  table: Table;
  images: Bucket;
  /** Set on the worker as on the other workers (STAGE, TABLE_NAME). */
  environment: Record<string, string>;
  logRetention: RetentionDays;
  /** @default `functions/images/worker.ts` */
  entry?: string;
}

export const IMAGE_WORKER_MEMORY_MB = 1024;

export class ImageWorker extends Construct {
  readonly worker: LambdaFunction;

  constructor(
    scope: Construct,
    id: string,
    { table, images, environment, logRetention, entry }: ImageWorkerProps,
  ) {
    super(scope, id);
    const handler = entry ?? IMAGE_WORKER_ENTRY;
    // Named apart from the job worker's `Worker`: alarms and dashboards label functions by their ids.
    this.worker = new WorkerFunction(this, 'ImageWorkerFunction', {
      entry: handler,
      build: (outdir) => bundleImageWorker(outdir, handler),
      logRetention,
      description:
        'Reads an image original, writes its metadata-free variants, moves it to ready or rejected',
      memorySize: IMAGE_WORKER_MEMORY_MB,
      timeout: Duration.seconds(60),
      environment: { ...environment, IMAGES_BUCKET: images.bucketName },
    });
    table.grantReadWriteData(this.worker);
    images.grantRead(this.worker, `${IMAGE_ORIGINALS_PREFIX}*`);
    images.grantPut(this.worker, `${IMAGE_VARIANTS_PREFIX}*`);
    // A new rendering (annotations changed) replaces the variants of the one before.
    images.grantDelete(this.worker, `${IMAGE_VARIANTS_PREFIX}*`);
  }

  /** What starting the worker needs: invoking it, by the name `IMAGE_WORKER_FUNCTION` gives. */
  grantStart(grantee: IGrantable) {
    this.worker.grantInvoke(grantee);
  }
}
