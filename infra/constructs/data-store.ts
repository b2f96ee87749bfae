/**
 * The table and the buckets, from the shared definitions. Safe defaults: on-demand billing,
 * point-in-time recovery, encryption, retained on stack deletion; buckets private, TLS-only, with the
 * 30-day expiry the spec gives device backups and exports, client uploads (`uploads/`, spent once a
 * completion has copied them) removed after a week, and server access logs in a log bucket. The
 * documents and images buckets are versioned: an overwritten or deleted file is kept as a noncurrent
 * version for `noncurrentVersionDays` (a regenerable prefix's, image variants, for less), then removed.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { bucketDefinitions, tableDefinition, UPLOADS_PREFIX } from '#shared/data/table-definition';

export interface DataStoreProps {
  /** Refuse table deletion (set for prod). @default false */
  deletionProtection?: boolean;
}

export class DataStore extends Construct {
  readonly table: Table;
  readonly deviceBackups: Bucket;
  readonly exports: Bucket;
  readonly documents: Bucket;
  /** Image originals (evidence: versioned, never expiring) and their regenerable variants (issue 44). */
  readonly images: Bucket;
  /** Server access logs of the other buckets, kept a year. */
  readonly accessLogs: Bucket;

  constructor(scope: Construct, id: string, props: DataStoreProps = {}) {
    super(scope, id);
    const string = (name: string) => ({ name, type: AttributeType.STRING });
    this.table = new Table(this, 'Table', {
      partitionKey: string(tableDefinition.partitionKey),
      sortKey: string(tableDefinition.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      stream: StreamViewType[tableDefinition.streamView],
      deletionProtection: props.deletionProtection ?? false,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of tableDefinition.localIndexes) {
      this.table.addLocalSecondaryIndex({
        indexName: index.name,
        sortKey: string(index.sortKey),
        projectionType: ProjectionType.ALL,
      });
    }
    for (const index of tableDefinition.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: string(index.partitionKey),
        sortKey: string(index.sortKey),
        projectionType: ProjectionType.ALL,
      });
    }
    this.accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ id: 'expire-after-365-days', expiration: Duration.days(365) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.deviceBackups = this.bucket('DeviceBackups', bucketDefinitions.deviceBackups);
    this.exports = this.bucket('Exports', bucketDefinitions.exports);
    this.documents = this.bucket('Documents', bucketDefinitions.documents);
    this.images = this.bucket('Images', bucketDefinitions.images);
  }

  private bucket(
    id: string,
    {
      expirationDays,
      uploadsExpirationDays,
      noncurrentVersionDays,
      regenerable,
    }: {
      expirationDays: number | null;
      uploadsExpirationDays: number | null;
      noncurrentVersionDays: number | null;
      /** Objects under `prefix` can be made again: a replaced or deleted one is kept only this many days. */
      regenerable?: { prefix: string; noncurrentVersionDays: number };
    },
  ): Bucket {
    return new Bucket(this, id, {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      versioned: noncurrentVersionDays !== null,
      lifecycleRules: [
        ...(noncurrentVersionDays
          ? [
              {
                id: `expire-noncurrent-versions-after-${noncurrentVersionDays}-days`,
                noncurrentVersionExpiration: Duration.days(noncurrentVersionDays),
              },
              // A deleted file's marker, once its versions have gone, is removed too.
              { id: 'remove-expired-delete-markers', expiredObjectDeleteMarker: true },
            ]
          : []),
        ...(regenerable
          ? [
              {
                id: `expire-noncurrent-${regenerable.prefix.replace(/\/$/, '')}-after-${regenerable.noncurrentVersionDays}-days`,
                prefix: regenerable.prefix,
                noncurrentVersionExpiration: Duration.days(regenerable.noncurrentVersionDays),
              },
            ]
          : []),
        // An export job's file is a multipart upload until its last part; a job that fails leaves its
        // parts, which S3 bills until they are dropped.
        { id: 'abort-incomplete-uploads-after-1-day', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        ...(expirationDays
          ? [{ id: `expire-after-${expirationDays}-days`, expiration: Duration.days(expirationDays) }]
          : []),
        ...(uploadsExpirationDays
          ? [
              {
                id: `expire-uploads-after-${uploadsExpirationDays}-days`,
                prefix: UPLOADS_PREFIX,
                expiration: Duration.days(uploadsExpirationDays),
              },
            ]
          : []),
      ],
      removalPolicy: RemovalPolicy.RETAIN,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: `${id}/`,
    });
  }
}
