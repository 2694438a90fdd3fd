/**
 * Starts an API emulator in this process and prints its URL: for tests that need handlers with an
 * environment of their own (a dependency that never answers, a short timeout, a small response limit), or a stack
 * of their own that delivers webhooks from its table as npm start does (EMULATOR_WEBHOOKS=1), or only what its own
 * operations queue (EMULATOR_WEBHOOKS=queue: redeliverEvents, on the run's table without reading its stream).
 */
import { startApiEmulator } from '../../local/api-emulator.ts';
import { startLocalIam } from '../../local/iam/local-iam.ts';
import { freePort } from '../../local/ports.ts';
import { startWebhookDelivery } from '../../local/webhooks.ts';

const setting = (name: string): number | undefined => Number(process.env[name]) || undefined;

// The run's policies (LOCAL_IAM_POLICIES), enforced here too.
await startLocalIam(process.env);
const webhooks = process.env.EMULATOR_WEBHOOKS;
if (webhooks === '1' || webhooks === 'queue') {
  await startWebhookDelivery({
    endpoint: String(process.env.DYNAMODB_ENDPOINT),
    tableName: String(process.env.TABLE_NAME),
    stream: webhooks === '1',
  });
}
const emulator = await startApiEmulator({
  port: await freePort(),
  functionTimeoutMs: setting('EMULATOR_FUNCTION_TIMEOUT_MS'),
  integrationTimeoutMs: setting('EMULATOR_INTEGRATION_TIMEOUT_MS'),
  lambdaResponseBytes: setting('EMULATOR_LAMBDA_RESPONSE_BYTES'),
});
process.stdout.write(`${emulator.url}\n`);
