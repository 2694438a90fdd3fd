/** Fake third-party servers listen on 127.0.0.1 only, on a port the system chooses: tests never reach beyond it. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** closes the server, ending any connection still open (a hung answer included) */
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
