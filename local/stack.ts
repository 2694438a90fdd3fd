import { join } from 'node:path';
import { positionSink } from '../shared/devices/sinks.ts';
import { startTeltonikaListener } from '../shared/devices/teltonika/listener.ts';
import { findVehicleByImei } from '../shared/store/vehicles.ts';
import { startApiEmulator } from './api-emulator.ts';
import { startDynamoDbLocal } from './dynamodb-local.ts';
import { runAs } from './iam/enforcement.ts';
import { startLocalIam } from './iam/local-iam.ts';
import { freePort } from './ports.ts';
import { startQuietCheckTimer } from './quiet-check-timer.ts';
import { startS3Local } from './s3-local.ts';
import { ensureTable } from './table.ts';
import { type LocalWebhookDelivery, startWebhookDelivery } from './webhooks.ts';

export interface LocalStackOptions {
  apiPort: number;
  dynamoPort: number;
  s3Port: number;
  /** where Teltonika units connect (TCP); without it no device listener runs */
  deviceTcpPort?: number;
  /** keep DynamoDB and S3 data here; without it DynamoDB runs in memory and S3 in a temp folder */
  dataDir?: string;
  s3Dir: string;
  /**
   * run webhook delivery in this process (default); the test run's shared stack does not, since its senders would read
   * this process's settings: a test file that delivers runs its own, on a table of its own (test/support/webhooks.ts).
   * `queue`: only what operations enqueue is delivered (redeliverEvents), not what the table's stream would carry.
   * Without delivery from the stream the table has none (local/table.ts says why).
   */
  webhooks?: boolean | 'queue';
  tableName: string;
  bucketName: string;
  /** run the quiet-vehicles check this often, as its schedule does in AWS (npm start only: tests run it themselves) */
  quietCheckIntervalS?: number;
  /** DynamoDB Local's JVM tuned for a run of minutes (the test run), not for a server left running */
  shortRun?: boolean;
}

export interface LocalStack {
  apiUrl: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  /** the Teltonika listener's port, when one runs */
  deviceTcpPort: number | undefined;
  /** webhook delivery: the table's stream → router → in-process queue → sender */
  webhooks: LocalWebhookDelivery | undefined;
  stop(): Promise<void>;
}

/**
 * DynamoDB Local + s3rver + the API emulator, wired as the Lambdas are in AWS: the handlers run in
 * this process and find their table and bucket through the same environment variables.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const dynamo = await startDynamoDbLocal({
    port: options.dynamoPort,
    shortRun: options.shortRun,
    dbPath: options.dataDir ? join(options.dataDir, 'dynamodb') : undefined,
  });
  const s3 = await startS3Local({ port: options.s3Port, directory: options.s3Dir, bucket: options.bucketName }).catch(async (error) => {
    await dynamo.stop();
    throw error;
  });
  Object.assign(process.env, {
    TABLE_NAME: options.tableName,
    BUCKET_NAME: options.bucketName,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    S3_ENDPOINT: s3.endpoint,
  });
  // Every function and the listener run with their roles' permissions in the synthesized stack (docs/decisions.md).
  let iam: Awaited<ReturnType<typeof startLocalIam>>;
  const delivery = options.webhooks ?? true;
  const webhooks = await ensureTable(dynamo.endpoint, options.tableName, { stream: delivery === true })
    .then(async () => {
      iam = await startLocalIam(process.env);
      return delivery === false
        ? undefined
        : startWebhookDelivery({
            endpoint: dynamo.endpoint,
            tableName: options.tableName,
            stream: delivery === true,
            ...(options.dataDir ? { checkpointFile: join(options.dataDir, 'webhook-stream.json') } : {}),
          });
    })
    .catch(async (error) => {
      await Promise.allSettled([s3.stop(), dynamo.stop()]);
      throw error;
    });
  const api = await startApiEmulator({ port: options.apiPort }).catch(async (error) => {
    await Promise.allSettled([webhooks?.stop(), s3.stop(), dynamo.stop()]);
    throw error;
  });
  // The listener's connections run as its ECS task (the context is kept by the server it creates).
  const teltonika =
    options.deviceTcpPort === undefined
      ? undefined
      : await runAs(TELTONIKA_TASK, () =>
          startTeltonikaListener({ port: options.deviceTcpPort as number, sink: positionSink(), findDevice: findVehicleByImei }),
        ).catch(async (error) => {
          await Promise.allSettled([api.close(), webhooks?.stop(), s3.stop(), dynamo.stop()]);
          throw error;
        });
  const quietCheck = options.quietCheckIntervalS ? startQuietCheckTimer(options.quietCheckIntervalS) : undefined;
  return {
    apiUrl: api.url,
    dynamoEndpoint: dynamo.endpoint,
    s3Endpoint: s3.endpoint,
    deviceTcpPort: teltonika?.port,
    webhooks,
    async stop() {
      quietCheck?.stop();
      await teltonika?.close();
      await api.close();
      await webhooks?.stop();
      await Promise.allSettled([s3.stop(), dynamo.stop()]);
      iam?.stop();
    },
  };
}

/** The Teltonika listener's principal: the container of its ECS task (infra/positions/teltonika-service.ts). */
const TELTONIKA_TASK = 'task:listener';

export { freePort };
