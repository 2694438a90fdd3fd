/**
 * A TCP server for devices that report over a binary protocol (docs/devices.md, "How it is built"): the transport and
 * the admission, knowing nothing of any protocol but what protocol.ts asks of one. It caps connections per task and
 * per source address, reads each connection at its own pace (paced-reader.ts), keeps its deadlines (deadlines.ts),
 * refuses unknown device ids with a budget per source and remembers them (source-guard.ts), keeps one live connection
 * per device id, and answers a frame only once the sink has its records (connection.ts).
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { PositionSink } from '../position-sink.ts';
import { DeviceConnection } from './connection.ts';
import type { DeviceProtocol } from './protocol.ts';
import { DEVICE_SERVER_DEFAULTS, type DeviceServerCounters, type DeviceServerLimits } from './server-settings.ts';
import { SourceGuard } from './source-guard.ts';

export interface DeviceServerOptions<Device> extends DeviceServerLimits {
  port: number;
  host?: string;
  protocol: DeviceProtocol<Device>;
  sink: PositionSink;
  /** what is registered with the device id, or undefined: the hello's answer */
  findDevice(deviceId: string): Promise<Device | undefined>;
  /** counted into as the server runs (the caller may count its protocol's own in the same object) */
  counters: DeviceServerCounters;
}

export interface DeviceServer {
  port: number;
  close(): Promise<void>;
}

export async function startDeviceServer<Device>(options: DeviceServerOptions<Device>): Promise<DeviceServer> {
  const { port, host, protocol, sink, findDevice, counters, ...limits } = options;
  const settings = { ...DEVICE_SERVER_DEFAULTS, ...limits };
  const context = { settings, protocol, sink, findDevice, counters, guard: new SourceGuard(settings), live: new Map<string, Socket>() };
  const sockets = new Set<Socket>();
  // A socket stops reading from the kernel as soon as it holds a chunk nobody took: bytes trickled one at a time
  // wait in the kernel's buffer and come up together at the next read (paced-reader.ts), not as a read each.
  const server: Server = createServer({ highWaterMark: 1 }, (socket) => {
    sockets.add(socket);
    counters.connections++;
    counters.openConnections++;
    socket.once('close', () => {
      sockets.delete(socket);
      counters.openConnections--;
    });
    new DeviceConnection(socket, context).open();
  });
  server.maxConnections = settings.maxConnections;
  server.on('drop', () => counters.connectionsRefused++);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: host ?? '0.0.0.0', backlog: 4096 }, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
