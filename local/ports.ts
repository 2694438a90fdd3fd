import { createServer, Socket } from 'node:net';

/** A port the OS says is free right now (tests run on free ports, never on fixed ones). */
export function freePort(): Promise<number> {
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
