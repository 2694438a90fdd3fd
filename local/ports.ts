import { readFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';

/** The first port of the range the kernel hands to outgoing connections (Linux; macOS and Windows start at 49152). */
function firstEphemeralPort(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 49152;
  }
}

const LOWEST_PORT = 10_000;
const handedOut = new Set<number>();

/**
 * A port free now that stays free until its server binds it (tests run on free ports, never on fixed ones).
 * Chosen below the kernel's ephemeral range: a port the kernel picks (listen on 0) may be taken by any outgoing
 * connection, such as a keep-alive socket to DynamoDB Local, between choosing it and binding it, which failed CI.
 */
export async function freePort(): Promise<number> {
  const span = firstEphemeralPort() - LOWEST_PORT;
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = LOWEST_PORT + Math.floor(Math.random() * span);
    if (handedOut.has(port) || !(await isPortFree(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${LOWEST_PORT} and ${LOWEST_PORT + span}`);
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
