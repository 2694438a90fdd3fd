/**
 * `npm start`: the whole service on this machine, on its embedded defaults.
 * Data lives in .local/ and survives restarts; Ctrl-C stops DynamoDB Local, s3rver and the API.
 */
import './quiet-powertools.ts';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { env } from '../shared/config.ts';
import { localDataDir } from './data-dir.ts';
import { isJavaMissing, JAVA_MISSING, leftoverDynamoDbLocal } from './dynamodb-local.ts';
import { isPortFree } from './ports.ts';
import { type DemoAccount, seedDemo } from './seed.ts';
import { type LocalStack, startLocalStack } from './stack.ts';

const dataDir = localDataDir();
const fromUser = relative(process.env.INIT_CWD ?? process.cwd(), dataDir);
const shownDataDir = fromUser === '' ? '.' : fromUser.startsWith('..') ? dataDir : fromUser;

const ports = {
  api: { port: Number(process.env.PORT ?? 3000), what: 'the API', variable: 'PORT' },
  s3: { port: Number(process.env.S3_PORT ?? 4569), what: 'S3 (s3rver)', variable: 'S3_PORT' },
  dynamo: { port: Number(process.env.DYNAMODB_PORT ?? 8000), what: 'DynamoDB Local', variable: 'DYNAMODB_PORT' },
  devices: { port: Number(process.env.DEVICE_TCP_PORT ?? 5027), what: 'the Teltonika listener', variable: 'DEVICE_TCP_PORT' },
};

/** One line per port something else holds; this project's own leftover DynamoDB Local is named with how to stop it. */
async function takenPorts(): Promise<string[]> {
  const lines: string[] = [];
  for (const [name, { port, what, variable }] of Object.entries(ports)) {
    if (!Number.isInteger(port) || port < 1 || port > 65_535) {
      lines.push(`${variable}=${process.env[variable]} is not a port number`);
      continue;
    }
    if (await isPortFree(port)) continue;
    const leftover = name === 'dynamo' ? leftoverDynamoDbLocal(join(dataDir, 'dynamodb')) : undefined;
    lines.push(
      leftover
        ? `port ${port} (${what}) is held by this project's own DynamoDB Local (pid ${leftover}), from an npm start that is still ` +
            `running or did not stop cleanly: stop that npm start, or \`kill ${leftover}\``
        : `port ${port} (${what}) is already in use: stop what holds it (another npm start?) or choose another port, e.g. ` +
            `${variable}=${port + 1} npm start`,
    );
  }
  return lines;
}

function printReady(stack: LocalStack, demo: DemoAccount): void {
  const base = `${stack.apiUrl}/api`;
  const key = demo.apiKey;
  console.log(`Fleet tracking service running at ${base}/<operation>   (data in ${shownDataDir})
  DynamoDB Local ${stack.dynamoEndpoint}   S3 (s3rver) ${stack.s3Endpoint}
  Teltonika units (Codec 8/8E over TCP): this machine's address, port ${stack.deviceTcpPort}   (docs/devices.md)
  demo api key: ${key}   (demo day, simulated through the positions pipeline: ${demo.day})
  console: ${stack.apiUrl}/console/   sign in as ${demo.personEmail}, password ${demo.personPassword}   (docs/console.md)

  curl -s '${base}/getVehicles?api_key=${key}'
  curl -s '${base}/getLiveData?api_key=${key}'
  curl -s '${base}/getTrips?api_key=${key}&start_date=${demo.day}&end_date=${demo.day}'
  curl -s '${base}/getFuelFillReport?api_key=${key}&vehicle_uid=${demo.vehicleUids[0]}&start_date=${demo.day}&end_date=${demo.day}'
  curl -s '${base}/getLiveMap?api_key=${key}&map_api_key=local' -o map.png

  devices (docs/devices.md): ${stack.apiUrl}/devices/osmand/<token>, ${stack.apiUrl}/devices/traccar
  ${webhookTargetsNote()}

Ctrl-C stops everything.`);
}

/**
 * A developer receives webhooks on 127.0.0.1, so npm start lets webhook URLs be http and loopback (docs/webhooks.md);
 * the deployed stack never sets the variable. WEBHOOK_ALLOW_LOCAL_TARGETS=0 npm start tries the deployed rules.
 */
process.env[env.webhookAllowLocalTargets] ??= '1';
const webhookTargetsNote = (): string =>
  process.env[env.webhookAllowLocalTargets] === '1'
    ? 'webhooks (docs/webhooks.md): http and loopback (127.0.0.1, ::1) URLs ALLOWED here, as a deployed stack never allows'
    : 'webhooks (docs/webhooks.md): https to public addresses only, as deployed';

/** Stops the stack once, saying what stopped. */
function stopper(stack: LocalStack): (reason?: string) => Promise<never> {
  let stopping = false;
  return async (reason) => {
    if (!stopping) {
      stopping = true;
      if (reason) console.error(reason);
      await stack.stop();
      console.log(
        `\nstopped: the API (port ${ports.api.port}), the Teltonika listener (port ${ports.devices.port}), S3 (port ${ports.s3.port}) ` +
          `and DynamoDB Local (port ${ports.dynamo.port})${existsSync(dataDir) ? `; data kept in ${shownDataDir}` : ''}`,
      );
    }
    process.exit(reason ? 1 : 0);
  };
}

/** OFFLINE_CHECK_INTERVAL_S: how often the quiet-vehicles check runs here (60 s, as its schedule in AWS). */
function quietCheckIntervalS(): number {
  const given = process.env[env.offlineCheckIntervalS];
  const seconds = Number(given ?? 60);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    console.error(`npm start cannot start: ${env.offlineCheckIntervalS}=${given} is not a number of seconds above 0`);
    process.exit(1);
  }
  return seconds;
}

if (isJavaMissing()) {
  console.error(JAVA_MISSING);
  process.exit(1);
}
const taken = await takenPorts();
if (taken.length > 0) {
  console.error(`npm start cannot start:\n${taken.map((line) => `  ${line}`).join('\n')}`);
  process.exit(1);
}
let stack: LocalStack | undefined;
try {
  stack = await startLocalStack({
    apiPort: ports.api.port,
    dynamoPort: ports.dynamo.port,
    s3Port: ports.s3.port,
    deviceTcpPort: ports.devices.port,
    dataDir,
    s3Dir: join(dataDir, 's3'),
    tableName: process.env.TABLE_NAME ?? 'fleet-tracking',
    bucketName: process.env.BUCKET_NAME ?? 'fleet-tracking-local',
    quietCheckIntervalS: quietCheckIntervalS(),
  });
  const stop = stopper(stack);
  printReady(stack, await seedDemo(join(dataDir, 'demo.json'), `${stack.apiUrl}/oidc`));
  process.on('SIGINT', () => stop());
  process.on('SIGTERM', () => stop());
  // DynamoDB Local and s3rver keep files open in the data folder: deleting it under them loses data silently.
  setInterval(() => {
    if (!existsSync(dataDir))
      void stop(
        `${shownDataDir} was deleted while npm start was running: stopping. To start afresh, stop npm start first (Ctrl-C), then ` +
          `delete ${shownDataDir}.`,
      );
  }, 1000).unref();
} catch (error) {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  await stack?.stop();
  process.exit(1);
}
