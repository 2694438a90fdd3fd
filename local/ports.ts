import { readFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';

/** The range the kernel hands outgoing connections their ports from (Linux; macOS and Windows use 49152-65535). */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high) return [low, high];
  } catch {}
  return [49152, 65535];
}

const LOWEST_PORT = 10_000;
const HIGHEST_PORT = 65_535;
const handedOut = new Set<number>();

/** The ports outside the ephemeral range, from LOWEST_PORT up: `span` of them, `at(n)` the n-th. */
export function portsOutside([low, high]: [number, number]): { span: number; at(n: number): number } {
  const below = Math.max(0, low - LOWEST_PORT);
  const above = Math.max(0, HIGHEST_PORT - Math.max(high, LOWEST_PORT - 1));
  return { span: below + above, at: (n) => (n < below ? LOWEST_PORT + n : Math.max(high, LOWEST_PORT - 1) + 1 + (n - below)) };
}

/**
 * A port free now that stays free until its server binds it (tests run on free ports, never on fixed ones).
 * Chosen outside the kernel's ephemeral range: a port the kernel picks (listen on 0) may be taken by any outgoing
 * connection, such as a keep-alive socket to DynamoDB Local, between choosing it and binding it.
 */
export async function freePort(): Promise<number> {
  const outside = portsOutside(ephemeralRange());
  for (let attempt = 0; attempt < 100 && outside.span > 0; attempt++) {
    const port = outside.at(Math.floor(Math.random() * outside.span));
    if (handedOut.has(port) || !(await isPortFree(port))) continue;
    handedOut.add(port);
    return port;
  }
  return kernelPickedPort();
}

/** The last resort where the ephemeral range leaves no room: a port the kernel picks, free right now. */
function kernelPickedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Resolves once something accepts connections on 127.0.0.1:port. */
export async function waitForPort(port: number, timeoutMs: number, isAlive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`the process meant to listen on port ${port} exited`);
    if (await canConnect(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listened on port ${port} within ${timeoutMs} ms`);
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

/** Whether this process could listen on the port now. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** Fails when something already listens on the port (which waitForPort alone would mistake for success). */
export async function assertPortFree(port: number, what: string): Promise<void> {
  if (!(await isPortFree(port))) throw new Error(`${what} cannot start: port ${port} is already in use`);
}
