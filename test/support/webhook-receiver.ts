/** A webhook endpoint on 127.0.0.1 that records what it receives and answers as a test tells it. */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach } from 'vitest';
import { type Listening, listenOnLoopback } from './loopback.ts';

export interface ReceivedDelivery {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

/** How the receiver answers the n-th delivery (0-based): a status with headers, or a hand-written answer. */
export type Answer = (
  delivery: ReceivedDelivery,
  n: number,
  res: ServerResponse,
) => { status: number; headers?: Record<string, string> } | 'handled';

export interface Receiver extends Listening {
  /** the URL to register: origin + /hooks */
  url: string;
  received: ReceivedDelivery[];
  /** resolves once `count` deliveries have arrived */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
}

export const answerWith =
  (status: number, headers: Record<string, string> = {}): Answer =>
  () => ({ status, headers });

export async function givenReceiver(answer: Answer = answerWith(204)): Promise<Receiver> {
  const received: ReceivedDelivery[] = [];
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const delivery = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      receivedAt: Date.now(),
    };
    received.push(delivery);
    for (const w of waiting.filter((w) => received.length >= w.count)) w.resolve();
    const answered = answer(delivery, received.length - 1, res);
    if (answered === 'handled') return;
    res.writeHead(answered.status, answered.headers).end();
  });
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    url: `${listening.origin}/hooks`,
    received,
    waitFor: (count, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        if (received.length >= count) return resolve(received);
        const timer = setTimeout(
          () => reject(new Error(`${received.length} of ${count} deliveries arrived in ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiting.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      }),
  };
}

/** Receivers the calling test file closes after each of its tests: call once, at the file's top level. */
export function receiversClosedAfterEach(): (...args: Parameters<typeof givenReceiver>) => Promise<Receiver> {
  const receivers: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });
  return async (...args) => {
    const started = await givenReceiver(...args);
    receivers.push(started);
    return started;
  };
}
