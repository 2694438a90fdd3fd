/**
 * Public on-demand list prices used by `npm run bench -- cost`, in US$, for one region, in one place.
 * Region: us-east-1 (N. Virginia). Taken from the AWS pricing pages as published in November 2026 (DynamoDB's
 * on-demand prices after the November 2024 reduction). No free tier, no savings plans, no tax. Check them against
 * https://aws.amazon.com/pricing/ before quoting a figure; change them here and the breakdown follows.
 */
export const prices = {
  region: 'us-east-1',
  asOf: '2026-11',
  dynamodb: {
    /** on-demand, per million write request units (1 KB each; a transactional write costs 2) */
    perMillionWriteRequestUnits: 0.625,
    /** on-demand, per million read request units (4 KB strongly consistent; eventually consistent costs half) */
    perMillionReadRequestUnits: 0.125,
    /** provisioned, per write capacity unit-hour (one 1 KB write a second) */
    perWriteCapacityUnitHour: 0.00065,
    /** provisioned, per read capacity unit-hour (one 4 KB strongly consistent read a second, or two eventually consistent) */
    perReadCapacityUnitHour: 0.00013,
    /** Standard table class */
    perGbMonthStorage: 0.25,
    /** continuous backups (point-in-time recovery), per GB-month of table size */
    perGbMonthPitr: 0.2,
  },
  lambda: {
    /** Arm (Graviton2), first 7.5 billion GB-seconds a month */
    perGbSecondArm: 0.0000133334,
    perMillionRequests: 0.2,
  },
  /** Kinesis Data Streams (aws.amazon.com/kinesis/data-streams/pricing) */
  kinesis: {
    /** provisioned mode: per shard-hour (1,000 records/s or 1 MB/s of writes each) */
    perShardHour: 0.015,
    /** provisioned mode: per million PUT payload units (each record, rounded up to 25 KB) */
    perMillionPutPayloadUnits: 0.014,
    /** provisioned mode: retention beyond 24 h, up to 7 days, per shard-hour */
    perShardHourExtendedRetention: 0.02,
    /** on-demand mode: per stream-hour, billed whatever the traffic */
    perStreamHour: 0.04,
    /** on-demand data ingested, each record rounded up to 1 KB */
    perGbIngested: 0.08,
    /** on-demand data retrieved (one consumer: processPositions) */
    perGbRetrieved: 0.04,
    /** on-demand: retention beyond 24 h, per GB-month */
    perGbMonthExtendedRetention: 0.1,
  },
  s3: {
    perGbMonthStandard: 0.023,
    perThousandPuts: 0.005,
  },
  /** aws.amazon.com/api-gateway/pricing */
  apiGateway: {
    /** REST API, first 333 million requests a month */
    perMillionRestRequests: 3.5,
    /** HTTP API, first 300 million requests a month (each 512 KB counted as a request) */
    perMillionHttpRequests: 1.0,
  },
  /** AWS Fargate, Linux on ARM (Graviton), per hour (aws.amazon.com/fargate/pricing) */
  fargate: {
    perVcpuHourArm: 0.03238,
    perGbHourArm: 0.00356,
  },
  /** Network Load Balancer (aws.amazon.com/elasticloadbalancing/pricing): per hour, and per NLCU-hour (TCP: 800 new
   * connections/s, 100,000 active connections or 1 GB processed an hour each) */
  networkLoadBalancer: {
    perHour: 0.0225,
    perNlcuHour: 0.006,
  },
  /** Amazon Route 53 (aws.amazon.com/route53/pricing): a hosted zone, first 25 */
  route53: {
    perHostedZoneMonth: 0.5,
  },
  /** a public IPv4 address, in use or not (aws.amazon.com/vpc/pricing, "Public IPv4 addresses") */
  publicIpv4PerHour: 0.005,
  /** CloudWatch custom metrics, first 10,000 (aws.amazon.com/cloudwatch/pricing) */
  cloudwatch: {
    perMetricMonth: 0.3,
    /** a standard-resolution alarm, per metric it watches (metric math: each metric in it) */
    perAlarmMetricMonth: 0.1,
    perDashboardMonth: 3,
    /** CloudWatch Logs (standard class): ingestion per GB (each event's message and 26 bytes), storage per GB-month */
    logsPerGbIngested: 0.5,
    logsPerGbMonthStored: 0.03,
  },
  /** AWS X-Ray (aws.amazon.com/xray/pricing): traces recorded, per million */
  xray: {
    perMillionTracesRecorded: 5,
  },
  /** Amazon Location Service trackers, for comparison: position updates written to a tracker */
  amazonLocation: {
    perThousandPositionUpdates: 0.05,
  },
} as const;
