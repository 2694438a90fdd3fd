import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, isPortFree } from '../../local/ports.ts';

const firstEphemeralPort = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

describe('freePort', () => {
  it('chooses below the range outgoing connections take their ports from, so none can take it before its server binds', async () => {
    // Act
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));

    // Assess
    for (const port of ports) expect(port).toBeLessThan(firstEphemeralPort);
  });

  it('never hands out the same port twice in one process, even to callers asking at once', async () => {
    // Act
    const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));

    // Assess
    expect(new Set(ports).size).toBe(50);
  });

  it('hands out a port nothing listens on', async () => {
    // Act
    const port = await freePort();

    // Assess
    expect(await isPortFree(port)).toBe(true);
  });

  it('leaves an outgoing connection its own ephemeral port, which a port chosen by listening on 0 may collide with', async () => {
    // Prepare: why freePort does not listen on 0: an outgoing connection holds a port of the same range
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port: serverPort } = server.address() as { port: number };
    const client = connect(serverPort, '127.0.0.1');
    await new Promise((resolve) => client.once('connect', resolve));

    // Act
    const clientPortFree = await isPortFree(client.localPort as number);

    // Assess
    expect(client.localPort).toBeGreaterThanOrEqual(firstEphemeralPort);
    expect(clientPortFree).toBe(false);
    client.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
});
