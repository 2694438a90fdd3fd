/**
 * Sends a fuzz request exactly as built (fetch refuses a GET body and rewrites some headers),
 * and counts what it sent.
 */
import { Agent, request } from 'node:http';
import type { FuzzRequest } from './requests.ts';

export interface RawResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });
let sent = 0;

export const requestsSent = (): number => sent;

export function send(baseUrl: string, operation: string, fuzz: FuzzRequest): Promise<RawResponse> {
  sent += 1;
  const { hostname, port } = new URL(baseUrl);
  const headers = { ...fuzz.headers, ...(fuzz.body ? { 'Content-Length': String(fuzz.body.length) } : {}) };
  const path = `/api/${operation}${fuzz.query ? `?${fuzz.query}` : ''}`;
  return new Promise((resolve, reject) => {
    const outgoing = request({ hostname, port, method: fuzz.method, path, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'] ?? '', body: Buffer.concat(chunks) }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(fuzz.body);
  });
}

export const closeConnections = (): void => agent.destroy();
