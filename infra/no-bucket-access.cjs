// What an area function bundles in place of the S3 SDK when none of its routes declares a bucket
// (`infra/area-bundle.ts`): loading S3 there is a bug in a declaration's access, said plainly.
throw new Error(
  'This function declares no bucket access (Route.access.buckets), so it bundles no S3 client.',
);
