import { defineConfig } from 'vitest/config';

/**
 * Tests that need no Java, no database and no network beyond fake servers on 127.0.0.1: `npm run test:unit`.
 * Everything else is the integration project, which starts DynamoDB Local, s3rver and the API emulator once.
 */
const unit = [
  'test/domain/**/*.test.ts',
  'test/places/*.test.ts',
  'test/middleware/envelope.test.ts',
  'test/middleware/method-guard.test.ts',
  'test/middleware/parse-request.test.ts',
  'test/middleware/error-mapper.test.ts',
  'test/store/api-keys.test.ts',
  'test/store/entity.test.ts',
  'test/store/requests.test.ts',
  'test/store/operator-transactions.test.ts',
  'test/middleware/idempotency-faults.test.ts',
  'test/store/route-transactions.test.ts',
  'test/middleware/device-token-auth.test.ts',
  'test/devices/kinesis-sink.test.ts',
  'test/devices/local-sink.test.ts',
  'test/devices/teltonika-codec.test.ts',
  'test/providers/amazon-location-maps.test.ts',
  'test/providers/google-static-maps.test.ts',
  'test/providers/offline-map.test.ts',
  'test/project/line-width.test.ts',
  'test/project/lockfile.test.ts',
  'test/project/no-scan.test.ts',
  'test/project/registry.test.ts',
  'test/project/response-types.test.ts',
  'test/infra/grants-used.test.ts',
  'test/local/iam-requests.test.ts',
  'test/local/ports.test.ts',
  'test/webhooks/send.test.ts',
  'test/webhooks/local-delivery-queue.test.ts',
  'test/pipeline/ingest.test.ts',
];

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: unit, setupFiles: ['test/support/unit-setup.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: unit,
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/setup.ts'],
        },
      },
    ],
  },
});
