/**
 * Simulates a realistic day for the demo vehicles and runs it through the positions pipeline of the
 * `npm start` stack, writes it as NDJSON for `npm run ingest -- --file`, or sends it through a device protocol
 * (OsmAnd, Traccar forwarding, Teltonika over TCP) to a running local or deployed stack (docs/devices.md).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { localDataDir } from '../local/data-dir.ts';
import { isCalendarDate } from '../shared/domain/time.ts';
import { ingestRecords } from '../shared/pipeline/ingest.ts';
import { createDeviceToken } from '../shared/store/device-tokens.ts';
import { DEFAULT_REPORTING, demoFleetDay, interleave, recordsUntil, reportingAt } from '../simulator/index.ts';
import { runScript, UsageError, useLocalStack, userPath } from './cli.ts';
import { PROTOCOLS, type Protocol, sendReadings } from './devices/protocols.ts';

const DEMO_IMEIS = ['356307042441013', '356307042441021', '356307042441039'];

interface DemoFile {
  imeis?: string[];
  userUid?: number;
}

await runScript({
  usage: `
npm run simulate -- [--date yyyy-mm-dd] [--out file.ndjson] [--seed N] [--every S] [--no-speed]
npm run simulate -- --protocol osmand|traccar|teltonika [--url URL] [--tcp HOST:PORT] [--token T] [--imeis I,I,I] [--date ...]

  (no options)         today (UTC) up to now, into the running local stack (\`npm start\`)
  --date yyyy-mm-dd    another day (a day in the past is simulated whole; nothing later than now)
  --out file.ndjson    write the records to this file (relative to the folder you run npm in) instead
  --seed N             another variation of the day (default: derived from the date)
  --every S            seconds between records while driving: a phone 1, trackers 5 to 60 (default 30)
  --no-speed           records without GPS speed, as many phones and simple trackers send them

  --protocol P         send the day as devices do: osmand (a phone: Traccar Client, OsmAnd), traccar (a Traccar
                       server forwarding), teltonika (FMB units, Codec 8 over TCP); prints what was sent and acknowledged
  --url URL            the stack's base URL (default the local one, http://127.0.0.1:$PORT or 3000; deployed: the ApiUrl
                       output without /api/)
  --tcp HOST:PORT      where Teltonika units connect (default 127.0.0.1:$DEVICE_TCP_PORT or 5027; deployed: TeltonikaHost:5027)
  --token T            the device token for osmand and traccar (default: a new one for the local demo user)
  --imeis I,I,I        the vehicles' IMEIs (default: the local demo fleet's); they must be registered on the target`,
  options: {
    date: 'string',
    out: 'string',
    seed: 'string',
    protocol: 'string',
    url: 'string',
    tcp: 'string',
    token: 'string',
    imeis: 'string',
    every: 'string',
    'no-speed': 'boolean',
  },
  async run({ values, positionals }) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}; see --help`);
    const date = typeof values.date === 'string' ? values.date : new Date().toISOString().slice(0, 10);
    if (!isCalendarDate(date)) throw new UsageError('--date must be a date yyyy-mm-dd');
    const seed = values.seed === undefined ? Date.parse(date) / 86_400_000 : Number(values.seed);
    if (!Number.isSafeInteger(seed)) throw new UsageError('--seed must be an integer');
    const demoFile = `${localDataDir()}/demo.json`;
    const demo: DemoFile = existsSync(demoFile) ? JSON.parse(readFileSync(demoFile, 'utf8')) : {};
    const imeis = typeof values.imeis === 'string' ? imeiList(values.imeis) : demo.imeis?.length ? demo.imeis : DEMO_IMEIS;
    const everyS = values.every === undefined ? DEFAULT_REPORTING.drivingIntervalS : Number(values.every);
    if (!Number.isInteger(everyS) || everyS < 1 || everyS > 3600) throw new UsageError('--every must be whole seconds from 1 to 3600');
    const reporting = reportingAt(everyS, values['no-speed'] !== true);
    const records = recordsUntil(interleave(demoFleetDay(date, imeis, seed, reporting)), Date.now());
    if (typeof values.protocol === 'string') {
      await sendDay(values, values.protocol, records, demo);
      return;
    }
    const lines = records.map((record) => JSON.stringify(record));
    if (typeof values.out === 'string') {
      const file = userPath(values.out);
      writeFileSync(file, `${lines.join('\n')}\n`);
      console.log(JSON.stringify({ file, records: lines.length, date }));
      return;
    }
    await useLocalStack();
    const totals = await ingestRecords(lines, `simulate-${date}`);
    console.log(JSON.stringify({ date, records: totals.records, vehicles: totals.vehicles, trips: totals.trips, fills: totals.fills }));
  },
});

function imeiList(text: string): string[] {
  const imeis = text.split(',').map((imei) => imei.trim());
  if (imeis.some((imei) => !/^\d{15}$/.test(imei))) throw new UsageError('--imeis must be IMEIs of 15 digits, comma-separated');
  return imeis;
}

async function sendDay(
  values: Record<string, string | boolean | undefined>,
  protocolName: string,
  records: ReturnType<typeof recordsUntil>,
  demo: DemoFile,
): Promise<void> {
  if (!(PROTOCOLS as readonly string[]).includes(protocolName)) throw new UsageError(`--protocol must be one of ${PROTOCOLS.join(', ')}`);
  const protocol = protocolName as Protocol;
  if (values.out !== undefined) throw new UsageError('--out and --protocol do not go together');
  const baseUrl = (typeof values.url === 'string' ? values.url : `http://127.0.0.1:${process.env.PORT ?? 3000}`).replace(
    /\/(api\/?)?$/,
    '',
  );
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) throw new UsageError('--url must be an http(s) URL');
  const [tcpHost = '', tcpPortText = ''] = (
    typeof values.tcp === 'string' ? values.tcp : `127.0.0.1:${process.env.DEVICE_TCP_PORT ?? 5027}`
  ).split(/:(?=\d+$)/);
  const tcpPort = Number(tcpPortText);
  if (!tcpHost || !Number.isInteger(tcpPort) || tcpPort < 1 || tcpPort > 65_535) throw new UsageError('--tcp must be HOST:PORT');
  const token = protocol === 'teltonika' ? '' : await deviceToken(values, demo);
  const started = performance.now();
  const timings = await sendReadings(protocol, records, { baseUrl, token, tcpHost, tcpPort });
  console.log(
    JSON.stringify({
      protocol,
      records: records.length,
      vehicles: new Set(records.map((record) => record.imei)).size,
      [protocol === 'teltonika' ? 'packets_acked' : 'requests_answered_200']: timings.length,
      seconds: Math.round(performance.now() - started) / 1000,
      to: protocol === 'teltonika' ? `${tcpHost}:${tcpPort}` : baseUrl,
    }),
  );
}

/** The token given, or a new one for the local demo user (as `npm run admin -- device-token create` makes it). */
async function deviceToken(values: Record<string, string | boolean | undefined>, demo: DemoFile): Promise<string> {
  if (typeof values.token === 'string') return values.token;
  if (typeof values.url === 'string') throw new UsageError('--token is required with --url (npm run admin -- device-token create)');
  if (demo.userUid === undefined) throw new UsageError('no local demo user (.local/demo.json): start `npm start` once, or give --token');
  await useLocalStack();
  return (await createDeviceToken(demo.userUid)).token;
}
