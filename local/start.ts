/**
 * `npm start`: the whole service on this machine, on its embedded defaults.
 * Data lives in .local/ and survives restarts; Ctrl-C stops DynamoDB Local, s3rver and the API.
 */
import './quiet-powertools.ts';
import { join } from 'node:path';
import { JAVA_MISSING } from './dynamodb-local.ts';
import { seedDemo } from './seed.ts';
import { startLocalStack } from './stack.ts';

const dataDir = process.env.LOCAL_DATA_DIR ?? '.local';

try {
  const stack = await startLocalStack({
    apiPort: Number(process.env.PORT ?? 3000),
    dynamoPort: Number(process.env.DYNAMODB_PORT ?? 8000),
    s3Port: Number(process.env.S3_PORT ?? 4569),
    dataDir,
    s3Dir: join(dataDir, 's3'),
    tableName: process.env.TABLE_NAME ?? 'fleet-tracking',
    bucketName: process.env.BUCKET_NAME ?? 'fleet-tracking-local',
  });
  const demo = await seedDemo(join(dataDir, 'demo.json'));
  const base = `${stack.apiUrl}/api`;
  console.log(`Fleet tracking service running at ${base}/<operation>
  DynamoDB Local ${stack.dynamoEndpoint}   S3 (s3rver) ${stack.s3Endpoint}
  demo api key: ${demo.apiKey}   (demo day, simulated through the positions pipeline: ${demo.day})

  curl -s '${base}/getVehicles?api_key=${demo.apiKey}'

  also: ${base}/getTrips?api_key=${demo.apiKey}&start_date=${demo.day}&end_date=${demo.day}
        ${base}/getFuelFillReport?api_key=${demo.apiKey}&vehicle_uid=${demo.vehicleUids[0]}&start_date=${demo.day}&end_date=${demo.day}
        ${base}/getLiveMap?api_key=${demo.apiKey}&map_api_key=local   (a PNG)
Ctrl-C stops everything.`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(message === JAVA_MISSING ? message : `npm start failed: ${message}`);
  process.exit(1);
}
