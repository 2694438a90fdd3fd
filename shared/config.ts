import type { BucketPolicy } from './domain/token-bucket.ts';
import { DEFAULT_RETRY_SCHEDULE_S, parseRetrySchedule } from './domain/webhooks/retry-schedule.ts';

/**
 * Every setting the functions read, in one typed place. Each is read when asked for, not at module
 * init, so a test or script may set the environment after importing. infra/ sets the same variable
 * names (`env`), so the stack and the code cannot drift apart.
 */
export const env = {
  tableName: 'TABLE_NAME',
  bucketName: 'BUCKET_NAME',
  region: 'AWS_REGION',
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  s3Endpoint: 'S3_ENDPOINT',
  apiKeyCacheSeconds: 'API_KEY_CACHE_SECONDS',
  providerTimeoutMs: 'PROVIDER_TIMEOUT_MS',
  liveMapProvider: 'LIVE_MAP_PROVIDER',
  googleStaticMapsUrl: 'GOOGLE_STATIC_MAPS_URL',
  geoMapsEndpoint: 'GEO_MAPS_ENDPOINT',
  amazonLocationMapStyle: 'AMAZON_LOCATION_MAP_STYLE',
  mapTilesUrl: 'MAP_TILES_URL',
  mapTilesKeySecret: 'MAP_TILES_KEY_SECRET',
  mapTilesAttribution: 'MAP_TILES_ATTRIBUTION',
  directionsProvider: 'DIRECTIONS_PROVIDER',
  osrmUrl: 'OSRM_URL',
  googleDirectionsUrl: 'GOOGLE_DIRECTIONS_URL',
  googleDirectionsApiKey: 'GOOGLE_DIRECTIONS_API_KEY',
  googleDirectionsApiKeySecret: 'GOOGLE_DIRECTIONS_API_KEY_SECRET',
  estimateSpeedKmh: 'ESTIMATE_SPEED_KMH',
  rateLimitPerSecond: 'RATE_LIMIT_PER_SECOND',
  rateLimitBurst: 'RATE_LIMIT_BURST',
  lateWindowDays: 'LATE_POSITIONS_WINDOW_DAYS',
  positionRetentionDays: 'POSITION_RETENTION_DAYS',
  /** npm start only: how often the quiet-vehicles check runs (docs/positions-pipeline.md, "Quiet vehicles") */
  offlineCheckIntervalS: 'OFFLINE_CHECK_INTERVAL_S',
  // answer size and paging (docs/paging.md)
  answerBudgetBytes: 'ANSWER_BUDGET_BYTES',
  cursorKey: 'CURSOR_KEY',
  cursorKeySecret: 'CURSOR_KEY_SECRET',
  // device entry points (docs/devices.md)
  positionsStreamName: 'POSITIONS_STREAM_NAME',
  kinesisEndpoint: 'KINESIS_ENDPOINT',
  deviceTokenCacheSeconds: 'DEVICE_TOKEN_CACHE_SECONDS',
  deviceRateLimitPerImeiPerSecond: 'DEVICE_RATE_LIMIT_PER_IMEI_PER_SECOND',
  deviceRateLimitPerImeiBurst: 'DEVICE_RATE_LIMIT_PER_IMEI_BURST',
  deviceRateLimitPerTokenPerSecond: 'DEVICE_RATE_LIMIT_PER_TOKEN_PER_SECOND',
  deviceRateLimitPerTokenBurst: 'DEVICE_RATE_LIMIT_PER_TOKEN_BURST',
  teltonikaProxyProtocol: 'TELTONIKA_PROXY_PROTOCOL',
  // places: reverse geocoding and Amazon Location routes (docs/positions-pipeline.md, "Place names")
  geocodingProvider: 'GEOCODING_PROVIDER',
  geocodingTimeoutMs: 'GEOCODING_TIMEOUT_MS',
  geocodingBatchCalls: 'GEOCODING_BATCH_CALLS',
  geocodingBatchBudgetMs: 'GEOCODING_BATCH_BUDGET_MS',
  geocodingCacheDays: 'GEOCODING_CACHE_DAYS',
  googleGeocodingUrl: 'GOOGLE_GEOCODING_URL',
  googleGeocodingApiKey: 'GOOGLE_GEOCODING_API_KEY',
  googleGeocodingApiKeySecret: 'GOOGLE_GEOCODING_API_KEY_SECRET',
  nominatimUrl: 'NOMINATIM_URL',
  amazonPlacesEndpoint: 'AMAZON_LOCATION_PLACES_ENDPOINT',
  amazonRoutesEndpoint: 'AMAZON_LOCATION_ROUTES_ENDPOINT',
  // webhooks (docs/webhooks.md)
  webhookAllowLocalTargets: 'WEBHOOK_ALLOW_LOCAL_TARGETS',
  webhookQueueUrl: 'WEBHOOK_QUEUE_URL',
  webhookRetryQueueUrl: 'WEBHOOK_RETRY_QUEUE_URL',
  webhookRetrySchedule: 'WEBHOOK_RETRY_SCHEDULE_S',
  webhookEndpointConcurrency: 'WEBHOOK_ENDPOINT_CONCURRENCY',
  webhookTimeoutMs: 'WEBHOOK_TIMEOUT_MS',
  // people signing in (docs/console.md)
  oidcIssuer: 'OIDC_ISSUER',
  oidcClientId: 'OIDC_CLIENT_ID',
  oidcAudience: 'OIDC_AUDIENCE',
  oidcJwksUri: 'OIDC_JWKS_URI',
  oidcAccessTokenTtlS: 'OIDC_ACCESS_TOKEN_TTL_S',
  consoleMapStyle: 'CONSOLE_MAP_STYLE',
  consoleFreeBasemap: 'CONSOLE_FREE_BASEMAP',
} as const;

type Setting = keyof typeof env;

/** The variable's value, trimmed; undefined when unset or blank. */
const text = (setting: Setting): string | undefined => process.env[env[setting]]?.trim() || undefined;
/** A credential cache's lifetime: at most 60 s, so a lock or a revocation bites within a minute; 0 turns it off. */
const cacheMs = (setting: Setting): number => {
  const seconds = Number(text(setting) ?? 60);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 60) * 1000 : 60_000;
};

/** A positive number, else the default (a typo in a number must not become NaN or 0 at run time). */
const positiveNumber = (setting: Setting, fallback: number): number => {
  const value = Number(text(setting));
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

/**
 * Fixed limits the stack and the code share. Every AWS call must fail well inside the function's timeout,
 * so a hung DynamoDB or S3 answers 503 instead of a Lambda timeout: two attempts of at most 1.5 s
 * each (plus a short back-off) stay near 3 s of the 10 s.
 */
export const limits = {
  /** every API operation's Lambda timeout; infra sets it and the local emulator enforces it */
  functionTimeoutSeconds: 10,
  awsConnectionTimeoutMs: 1_000,
  /** the longest one attempt may wait for its answer */
  awsRequestTimeoutMs: 1_500,
  awsMaxAttempts: 2,
  /** Lambda's synchronous response limit: the whole response JSON (status, headers, body as sent) may be this long */
  lambdaResponseBytes: 6_291_556,
  /** API Gateway's payload limit, requests and answers */
  gatewayPayloadBytes: 10 * 1024 * 1024,
  /** API Gateway's REST integration timeout: past it the client gets a 504 whatever the function does */
  integrationTimeoutSeconds: 29,
  /**
   * Lambda's synchronous request limit on the event JSON (6 MiB; Lambda quotas, "Invocation payload"): API Gateway
   * accepts bodies up to 10 MB, but a proxy event over this is refused by Lambda and the client gets a 413
   */
  lambdaRequestBytes: 6 * 1024 * 1024,
  /**
   * API Gateway REST quota "Total combined size of request line and header values" (10240 bytes, not increasable);
   * it also bounds a regional API's URL (10240 characters)
   */
  gatewayRequestLineAndHeaderBytes: 10_240,
} as const;

/**
 * The client settings every AWS SDK client of the functions is built with. AWS_CONNECTION_TIMEOUT_MS,
 * AWS_REQUEST_TIMEOUT_MS and AWS_MAX_ATTEMPTS (the SDK's own name) are the test run's (test/support/global-setup.ts):
 * DynamoDB Local, a JVM sharing two cores with the test workers, can take seconds where DynamoDB takes milliseconds,
 * and a test checks outcomes, not latency. No stack sets them.
 */
export const awsClientTimeouts = () => ({
  maxAttempts: Number(process.env.AWS_MAX_ATTEMPTS) || limits.awsMaxAttempts,
  // Without throwOnRequestTimeout the SDK only logs a warning when requestTimeout passes, and keeps waiting.
  requestHandler: {
    connectionTimeout: Number(process.env.AWS_CONNECTION_TIMEOUT_MS) || limits.awsConnectionTimeoutMs,
    requestTimeout: Number(process.env.AWS_REQUEST_TIMEOUT_MS) || limits.awsRequestTimeoutMs,
    throwOnRequestTimeout: true,
  },
});

/**
 * The per-key limit the stack and the local server both run with: Samsara's per-token 150 requests a second, a
 * bucket of 2 s of it (docs/decisions.md, "Per-api-key token bucket").
 */
export const rateLimitDefaults = { perSecond: 150, burst: 300 } as const satisfies BucketPolicy;

/** A unit, a phone: 10 a second, 100 at once; a Traccar server forwarding a fleet on one token: 200 a second, 1,000 at once. */
export const deviceRateLimitDefaults = {
  perImei: { perSecond: 10, burst: 100 },
  perToken: { perSecond: 200, burst: 1000 },
} as const satisfies Record<string, BucketPolicy>;

export const config = {
  tableName: (): string => text('tableName') ?? 'fleet-tracking',
  bucketName: (): string => text('bucketName') ?? 'fleet-tracking-local',
  /** set only locally: DynamoDB Local and s3rver */
  dynamodbEndpoint: (): string | undefined => text('dynamodbEndpoint'),
  s3Endpoint: (): string | undefined => text('s3Endpoint'),
  region: (fallback: string): string => text('region') ?? fallback,
  /** how long a found key may be cached; 0 turns the cache off (the tests lock keys) */
  apiKeyCacheMs: (): number => cacheMs('apiKeyCacheSeconds'),
  /** inside the functions' 10 s timeout */
  providerTimeoutMs: (): number => positiveNumber('providerTimeoutMs', 8_000),
  liveMapProvider: (): string => text('liveMapProvider') ?? 'offline',
  googleStaticMapsUrl: (): string | undefined => text('googleStaticMapsUrl'),
  /** set only locally: a GetStaticMap endpoint other than AWS's (the tests' fake) */
  geoMapsEndpoint: (): string | undefined => text('geoMapsEndpoint'),
  amazonLocationMapStyle: (): 'Satellite' | 'Standard' => (text('amazonLocationMapStyle') === 'Standard' ? 'Standard' : 'Satellite'),
  /** an XYZ raster tile URL template with {z}, {x}, {y} and optionally {key} */
  mapTilesUrl: (): string | undefined => text('mapTilesUrl'),
  /** Secrets Manager secret holding the tile server's key; without it the request's map_api_key fills {key} */
  mapTilesKeySecret: (): string | undefined => text('mapTilesKeySecret'),
  mapTilesAttribution: (): string => text('mapTilesAttribution') ?? '',
  directionsProvider: (): string => text('directionsProvider')?.toLowerCase() ?? 'estimate',
  osrmUrl: (): string | undefined => text('osrmUrl'),
  googleDirectionsUrl: (): string | undefined => text('googleDirectionsUrl'),
  googleDirectionsApiKey: (): string | undefined => text('googleDirectionsApiKey'),
  googleDirectionsApiKeySecret: (): string | undefined => text('googleDirectionsApiKeySecret'),
  /** each api key's token bucket (docs/operations.md, "Scaling"); RATE_LIMIT_PER_SECOND=0 turns it off (the benchmark's baseline) */
  rateLimit: (): BucketPolicy | undefined => {
    if (text('rateLimitPerSecond') === '0') return undefined;
    return {
      perSecond: positiveNumber('rateLimitPerSecond', rateLimitDefaults.perSecond),
      burst: positiveNumber('rateLimitBurst', rateLimitDefaults.burst),
    };
  },
  /** checked by the estimate provider, which names the variable when it is not a positive number */
  estimateSpeedKmh: (): number => Number(text('estimateSpeedKmh') ?? 50),
  /** how far behind a vehicle's newest point a position may arrive and still be detected (Kinesis keeps records 7 days) */
  lateWindowMs: (): number => positiveNumber('lateWindowDays', 7) * 86_400_000,
  /** how long position history and detection checkpoints are kept (DynamoDB TTL) */
  positionRetentionDays: (): number => positiveNumber('positionRetentionDays', 400),
  /**
   * How many bytes of records one plain JSON answer may carry (docs/paging.md): Lambda's limit less room for the
   * envelope and headers. Tests set a small one so a refusal needs little data.
   */
  answerBudgetBytes: (): number => positiveNumber('answerBudgetBytes', limits.lambdaResponseBytes - 64 * 1024),
  /** the key cursors are sealed with: locally a text; in AWS the secret the stack creates (CURSOR_KEY_SECRET) */
  cursorKey: (): string | undefined => text('cursorKey'),
  cursorKeySecret: (): string | undefined => text('cursorKeySecret'),
  ...placesConfig(),
  ...devicesConfig(),
  /** set only by npm start: webhooks may be http and reach loopback addresses; a deployed stack never sets it */
  webhookAllowLocalTargets: (): boolean => text('webhookAllowLocalTargets') === '1',
  ...webhookDeliveryConfig(),
  ...signInConfig(),
};

/** People signing in (docs/console.md, "Settings"): the issuer whose access tokens the API accepts, and the console's. */
function signInConfig() {
  return {
    /** the OIDC issuer; unset: no bearer token is accepted (npm start sets its own provider's) */
    oidcIssuer: (): string | undefined => text('oidcIssuer'),
    /** the console's client at the issuer (a Cognito app client's id when deployed) */
    oidcClientId: (): string => text('oidcClientId') ?? 'fleet-console',
    /** the `aud` an issuer other than Cognito puts in its access tokens for this API; Cognito's carry client_id instead */
    oidcAudience: (): string | undefined => text('oidcAudience'),
    /** where an issuer other than Cognito publishes its keys, when not at <issuer>/.well-known/jwks.json */
    oidcJwksUri: (): string | undefined => text('oidcJwksUri'),
    /** the local provider's access-token lifetime (seconds); tests shorten it to watch a token expire */
    oidcAccessTokenTtlS: (): number => positiveNumber('oidcAccessTokenTtlS', 3600),
    /** a MapLibre style URL for the console's basemap; unset: the offline style */
    consoleMapStyle: (): string | null => text('consoleMapStyle') ?? null,
    /** 1: the console offers OpenFreeMap's free vector style (its origin joins the console's CSP) */
    consoleFreeBasemap: (): boolean => text('consoleFreeBasemap') === '1',
  };
}

/** Webhook delivery's settings (docs/webhooks.md, "Delivery"). */
function webhookDeliveryConfig() {
  return {
    /** the deliveries queue (SQS); unset locally, where the in-process queue stands in */
    webhookQueueUrl: (): string | undefined => text('webhookQueueUrl'),
    /** the retries queue (SQS): attempts after the first, and deliveries deferred by a busy endpoint */
    webhookRetryQueueUrl: (): string | undefined => text('webhookRetryQueueUrl'),
    /** the waits between attempts, comma-separated seconds; a developer sets small ones to watch retries */
    webhookRetrySchedule: (): readonly number[] => parseRetrySchedule(text('webhookRetrySchedule') ?? '') ?? DEFAULT_RETRY_SCHEDULE_S,
    /** deliveries in flight to one endpoint at once: a slow endpoint holds at most this many senders */
    webhookEndpointConcurrency: (): number => Math.floor(positiveNumber('webhookEndpointConcurrency', 4)),
    /** an attempt with no answer within this is a timeout; 10 s, tests shorten it */
    webhookTimeoutMs: (): number => positiveNumber('webhookTimeoutMs', 10_000),
  };
}

/** The device entry points' settings (docs/devices.md). */
function devicesConfig() {
  return {
    /** the positions stream device entry points write to; unset locally, where they feed the local pipeline */
    positionsStreamName: (): string | undefined => text('positionsStreamName'),
    /** set only by tests: a Kinesis endpoint other than AWS's */
    kinesisEndpoint: (): string | undefined => text('kinesisEndpoint'),
    /** how long a found device token (and a token's IMEIs) may be cached: a revoked token stops within this; 0 turns it off */
    deviceTokenCacheMs: (): number => cacheMs('deviceTokenCacheSeconds'),
    /** each IMEI's and each device token's token bucket on the HTTP device endpoints (docs/devices.md, "Security") */
    deviceRateLimits: (): { perImei: BucketPolicy; perToken: BucketPolicy } => ({
      perImei: {
        perSecond: positiveNumber('deviceRateLimitPerImeiPerSecond', deviceRateLimitDefaults.perImei.perSecond),
        burst: positiveNumber('deviceRateLimitPerImeiBurst', deviceRateLimitDefaults.perImei.burst),
      },
      perToken: {
        perSecond: positiveNumber('deviceRateLimitPerTokenPerSecond', deviceRateLimitDefaults.perToken.perSecond),
        burst: positiveNumber('deviceRateLimitPerTokenBurst', deviceRateLimitDefaults.perToken.burst),
      },
    }),
    /** the Teltonika listener reads a PROXY protocol v2 header first (behind the NLB, which sends it) */
    teltonikaProxyProtocol: (): boolean => text('teltonikaProxyProtocol') === 'true',
  };
}

/** Reverse geocoding and Amazon Location settings, kept together (docs/positions-pipeline.md, "Place names"). */
function placesConfig() {
  return {
    /** amazon | google | nominatim | gazetteer (no provider: the offline gazetteer names what no zone does) */
    geocodingProvider: (): string => text('geocodingProvider')?.toLowerCase() ?? 'gazetteer',
    /** one provider call's limit: a slow provider costs a batch this much per place at most */
    geocodingTimeoutMs: (): number => positiveNumber('geocodingTimeoutMs', 1_500),
    /** provider calls one batch (or one addRoute) may make; later new places get the gazetteer's name */
    geocodingBatchCalls: (): number => positiveNumber('geocodingBatchCalls', 20),
    /** time from a batch's first provider call after which it makes no more */
    geocodingBatchBudgetMs: (): number => positiveNumber('geocodingBatchBudgetMs', 5_000),
    /** how long a geocoded address is kept in the table (DynamoDB TTL) */
    geocodingCacheDays: (): number => positiveNumber('geocodingCacheDays', 30),
    googleGeocodingUrl: (): string | undefined => text('googleGeocodingUrl'),
    googleGeocodingApiKey: (): string | undefined => text('googleGeocodingApiKey'),
    googleGeocodingApiKeySecret: (): string | undefined => text('googleGeocodingApiKeySecret'),
    nominatimUrl: (): string | undefined => text('nominatimUrl'),
    /** set only by tests: a fake Amazon Location server on 127.0.0.1, signed with fake credentials */
    amazonPlacesEndpoint: (): string | undefined => text('amazonPlacesEndpoint'),
    amazonRoutesEndpoint: (): string | undefined => text('amazonRoutesEndpoint'),
  };
}
