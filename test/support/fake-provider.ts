/** A third-party provider faked by a node:http server on 127.0.0.1 that answers in the provider's wire format. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenOnLoopback } from './loopback.ts';

export type Answer = { status?: number; body: unknown; headers?: Record<string, string> } | { status?: number; text: string } | 'hang';

export interface ProviderRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  /** the request body parsed as JSON, when it is JSON */
  body: unknown;
}

export interface FakeProvider {
  url: string;
  /** every request received, oldest first */
  requests: URL[];
  received: ProviderRequest[];
  answer: (url: URL, request: ProviderRequest) => Answer;
  close(): Promise<void>;
}

export async function startFakeProvider(answer: (url: URL, request: ProviderRequest) => Answer): Promise<FakeProvider> {
  const requests: URL[] = [];
  const received: ProviderRequest[] = [];
  const fake = { requests, received, answer } as FakeProvider;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      const request = { method: req.method ?? 'GET', url, headers: req.headers, body: parseJson(text) };
      requests.push(url);
      received.push(request);
      const reply = fake.answer(url, request);
      if (reply === 'hang') return;
      res.writeHead(reply.status ?? 200, {
        'Content-Type': 'application/json; charset=UTF-8',
        ...('headers' in reply ? reply.headers : {}),
      });
      res.end('text' in reply ? reply.text : JSON.stringify(reply.body));
    });
  });
  const listening = await listenOnLoopback(server);
  fake.url = listening.origin;
  fake.close = listening.close;
  return fake;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}
