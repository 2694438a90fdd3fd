import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createApi } from './api.ts';

export interface IsolatedEmulator {
  api: ReturnType<typeof createApi>;
  url: string;
  stop(): Promise<void>;
}

/**
 * An API emulator in a child process, with the run's environment plus `env`: its handlers build their own
 * AWS clients, so one endpoint can be pointed somewhere else without touching the shared emulator.
 */
export async function startIsolatedEmulator(env: Record<string, string>): Promise<IsolatedEmulator> {
  const script = fileURLToPath(new URL('./run-emulator.ts', import.meta.url));
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk) => (errors += String(chunk)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += String(chunk);
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited (${code}): ${errors}`)));
  });
  return { api: createApi(() => url), url, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });
}

export interface SilentServer {
  endpoint: string;
  /** connections accepted so far */
  readonly connections: number;
  close(): Promise<void>;
}

/** A TCP server on 127.0.0.1 that accepts connections and never answers: a hung dependency. */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
