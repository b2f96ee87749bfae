import { existsSync } from 'node:fs';
/**
 * An area's Lambda function with the house defaults: Node.js 24 on arm64, the area router bundled
 * locally by esbuild (never Docker) with code splitting and the AWS SDK bundled in (measured faster to
 * start than the runtime's copy), no source maps, and a log group with a retention period.
 */
import { resolve } from 'node:path';
import { AssetHashType, DockerImage, Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  Architecture,
  Code,
  type FunctionProps,
  Function as LambdaFunction,
  Runtime,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { FUNCTION_TIMEOUT_SECONDS } from '#shared/http/route';
import type { Route } from '#shared/routes';
import { bundleArea } from '../area-bundle';
import { REPOSITORY_ROOT } from '../repository';

export interface AreaFunctionProps extends Omit<FunctionProps, 'code' | 'handler' | 'runtime'> {
  area: string;
  routes: readonly Route[];
  /** @default RetentionDays.ONE_MONTH */
  logRetention?: RetentionDays;
}

/**
 * The folder of an area's route list (`shared/resources/<area>/`); the fallback has only its handler's.
 * Not `functions/<area>/`: an area of declared resources alone has no handler files, and git keeps no
 * empty folder.
 */
const areaFolder = (area: string): string => {
  const folder = [
    resolve(REPOSITORY_ROOT, 'shared', 'resources', area),
    resolve(REPOSITORY_ROOT, 'functions', area),
  ].find((folder) => existsSync(folder));
  if (!folder) throw new Error(`Area ${area} has no folder`);
  return folder;
};

export class AreaFunction extends LambdaFunction {
  constructor(scope: Construct, id: string, { area, routes, logRetention, ...props }: AreaFunctionProps) {
    super(scope, id, {
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
      handler: 'index.handler',
      // The area's folder is the asset's source: CDK keys its bundling cache on it, so each area gets
      // its own bundle. The bundle's own hash names the asset: unchanged code is not uploaded again.
      code: Code.fromAsset(areaFolder(area), {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Never used: local bundling always succeeds (esbuild is a dependency); CDK requires an image.
          image: DockerImage.fromRegistry('scratch'),
          local: {
            tryBundle: (outputDir) => {
              bundleArea(area, routes, outputDir);
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
