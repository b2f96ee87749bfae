import { existsSync } from 'node:fs';
/**
 * The service's Lambda functions with the house defaults: Node.js 24 on arm64, bundled locally by
 * esbuild (never Docker) with the AWS SDK bundled in (measured faster to start than the runtime's copy),
 * no source maps, and a log group with a retention period. An area's function bundles its router with
 * code splitting; a worker (the stream's event consumer) bundles its one handler module.
 */
import { dirname, resolve } from 'node:path';
import { AssetHashType, DockerImage, Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  Architecture,
  Code,
  type FunctionProps,
  Function as LambdaFunction,
  Runtime,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { FUNCTION_TIMEOUT_SECONDS } from '#shared/http/route';
import type { Route } from '#shared/routes';
import { bundleArea } from '../area-bundle';
import { bundleEntry } from '../node-bundle';
import { REPOSITORY_ROOT } from '../repository';

export interface AreaFunctionProps extends Omit<FunctionProps, 'code' | 'handler' | 'runtime'> {
  area: string;
  routes: readonly Route[];
  /** @default RetentionDays.ONE_MONTH */
  logRetention?: RetentionDays;
}

/**
 * The area's home, `functions/<area>/`; an area whose manifest lives in another's home (the street-works
 * feed's, in `functions/street-works/`) is keyed on the folder of its first route's handler.
 */
const areaFolder = (area: string, routes: readonly Route[]): string => {
  const home = resolve(REPOSITORY_ROOT, 'functions', area);
  const folder = existsSync(home) ? home : routes[0] && dirname(resolve(REPOSITORY_ROOT, routes[0].handler));
  if (!folder) throw new Error(`Area ${area} has no folder`);
  return folder;
};

interface BundledFunctionProps extends Omit<FunctionProps, 'code' | 'handler' | 'runtime'> {
  /** The folder CDK keys its bundling cache on. */
  source: string;
  /** Writes the bundle (its `index.mjs` exporting `handler`) into `outdir`. */
  build: (outdir: string) => void;
  /** @default RetentionDays.ONE_MONTH */
  logRetention?: RetentionDays;
}

/** A function of this service, with the house defaults, bundled locally by esbuild. */
class BundledFunction extends LambdaFunction {
  constructor(scope: Construct, id: string, { source, build, logRetention, ...props }: BundledFunctionProps) {
    super(scope, id, {
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
      handler: 'index.handler',
      // Lambda active tracing: each invocation is an X-Ray trace (its id on every log line).
      tracing: Tracing.ACTIVE,
      // The source folder keys CDK's bundling cache; the bundle's own hash names the asset, so unchanged
      // code is not uploaded again.
      code: Code.fromAsset(source, {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Never used: local bundling always succeeds (esbuild is a dependency); CDK requires an image.
          image: DockerImage.fromRegistry('scratch'),
          local: {
            tryBundle: (outputDir) => {
              build(outputDir);
              return true;
            },
          },
        },
      }),
      logGroup: new LogGroup(scope, `${id}Logs`, {
        retention: logRetention ?? RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.RETAIN,
      }),
      ...props,
    });
  }
}

/** An area's function: its router and every route's handler (each area its own bundle). */
export class AreaFunction extends BundledFunction {
  constructor(scope: Construct, id: string, { area, routes, ...props }: AreaFunctionProps) {
    super(scope, id, {
      source: areaFolder(area, routes),
      build: (outdir) => bundleArea(area, routes, outdir),
      ...props,
    });
  }
}

/**
 * A function that serves no route (the stream's event consumer): one handler module, bundled alone, or
 * by its own `build` (the due-work runner's, the consumer's and the job worker's generated entries).
 */
export class WorkerFunction extends BundledFunction {
  constructor(
    scope: Construct,
    id: string,
    {
      entry,
      build,
      ...props
    }: Omit<BundledFunctionProps, 'source' | 'build'> & { entry: string; build?: (outdir: string) => void },
  ) {
    super(scope, id, {
      source: dirname(resolve(REPOSITORY_ROOT, entry)),
      build: build ?? ((outdir) => bundleEntry(entry, outdir)),
      ...props,
    });
  }
}
