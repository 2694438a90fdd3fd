import { join } from 'node:path';
import { positionSink } from '../shared/devices/sinks.ts';
import { startTeltonikaListener } from '../shared/devices/teltonika/listener.ts';
import { findVehicleByImei } from '../shared/store/vehicles.ts';
import { startApiEmulator } from './api-emulator.ts';
import { startDynamoDbLocal } from './dynamodb-local.ts';
import { runAs } from './iam/enforcement.ts';
import { startLocalIam } from './iam/local-iam.ts';
import { freePort } from './ports.ts';
import { startS3Local } from './s3-local.ts';
import { ensureTable } from './table.ts';

export interface LocalStackOptions {
  apiPort: number;
  dynamoPort: number;
  s3Port: number;
  /** where Teltonika units connect (TCP); without it no device listener runs */
  deviceTcpPort?: number;
  /** keep DynamoDB and S3 data here; without it DynamoDB runs in memory and S3 in a temp folder */
  dataDir?: string;
  s3Dir: string;
  tableName: string;
  bucketName: string;
}

export interface LocalStack {
  apiUrl: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  /** the Teltonika listener's port, when one runs */
  deviceTcpPort: number | undefined;
  stop(): Promise<void>;
}

/**
 * DynamoDB Local + s3rver + the API emulator, wired as the Lambdas are in AWS: the handlers run in
 * this process and find their table and bucket through the same environment variables.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const dynamo = await startDynamoDbLocal({
    port: options.dynamoPort,
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
  let iam: ReturnType<typeof startLocalIam>;
  const api = await ensureTable(dynamo.endpoint, options.tableName)
    .then(() => {
      // Every function and the listener run with their roles' permissions in the synthesized stack (docs/decisions.md).
      iam = startLocalIam(process.env);
      return startApiEmulator({ port: options.apiPort });
    })
    .catch(async (error) => {
      await Promise.allSettled([s3.stop(), dynamo.stop()]);
      throw error;
    });
  // The listener's connections run as its ECS task (the context is kept by the server it creates).
  const teltonika =
    options.deviceTcpPort === undefined
      ? undefined
      : await runAs(TELTONIKA_TASK, () =>
          startTeltonikaListener({ port: options.deviceTcpPort as number, sink: positionSink(), findDevice: findVehicleByImei }),
        ).catch(async (error) => {
          await Promise.allSettled([api.close(), s3.stop(), dynamo.stop()]);
          throw error;
        });
  return {
    apiUrl: api.url,
    dynamoEndpoint: dynamo.endpoint,
    s3Endpoint: s3.endpoint,
    deviceTcpPort: teltonika?.port,
    async stop() {
      await teltonika?.close();
      await api.close();
      await Promise.allSettled([s3.stop(), dynamo.stop()]);
      iam?.stop();
    },
  };
}

/** The Teltonika listener's principal: the container of its ECS task (infra/teltonika-service.ts). */
const TELTONIKA_TASK = 'task:listener';

export { freePort };
