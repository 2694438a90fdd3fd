import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, isPortFree, portsOutside } from '../../local/ports.ts';

const [firstEphemeralPort, lastEphemeralPort] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
  .trim()
  .split(/\s+/)
  .map(Number) as [number, number];

describe('freePort', () => {
  it('chooses outside the range outgoing connections take their ports from, so none can take it before its server binds', async () => {
    // Act
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));

    // Assess
    for (const port of ports) expect(port < firstEphemeralPort || port > lastEphemeralPort).toBe(true);
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

describe('portsOutside', () => {
  it('counts the ports below and above the ephemeral range, from 10000 up, and names each once', () => {
    // Act
    const outside = portsOutside([32768, 60999]);
    const named = Array.from({ length: outside.span }, (_, n) => outside.at(n));

    // Assess
    expect(outside.span).toBe(32768 - 10000 + 65535 - 60999);
    expect(named[0]).toBe(10000);
    expect(named.at(-1)).toBe(65535);
    expect(named.some((port) => port >= 32768 && port <= 60999)).toBe(false);
    expect(new Set(named).size).toBe(outside.span);
  });

  it('finds room above a range that starts low, and none where the range covers every port', () => {
    // Act
    const startsLow = portsOutside([1024, 49151]);
    const covering = portsOutside([1024, 65535]);

    // Assess
    expect(startsLow.span).toBe(65535 - 49151);
    expect(startsLow.at(0)).toBe(49152);
    expect(covering.span).toBe(0);
  });
});
