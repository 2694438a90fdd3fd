/** The PROXY protocol v2 header the NLB puts before a connection's bytes (haproxy's proxy-protocol.txt, section 2.2). */
import { describe, expect, it } from 'vitest';
import { ProxyHeaderRefused, proxyHeaderV4, readProxyHeader } from '../../shared/devices/tcp/proxy-protocol.ts';

const SIGNATURE = '0d0a0d0a000d0a515549540a';

/** A header from its version/command and family bytes and its address block (TLVs included). */
const headerOf = (versionCommand: number, family: number, block: Buffer): Buffer => {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(block.length);
  return Buffer.concat([Buffer.from(SIGNATURE, 'hex'), Buffer.from([versionCommand, family]), length, block]);
};

describe('readProxyHeader', () => {
  it('reads the source address of a TCP over IPv4 connection, and how long the header is', () => {
    const header = proxyHeaderV4('203.0.113.7', 40_001);
    expect(readProxyHeader(Buffer.concat([header, Buffer.from('000f', 'hex')]))).toEqual({
      kind: 'proxied',
      sourceAddress: '203.0.113.7',
      headerBytes: 28,
    });
  });

  it('reads an IPv6 source, and skips the TLVs after the addresses (the NLB adds its endpoint id)', () => {
    const addresses = Buffer.alloc(36);
    Buffer.from('20010db8000000000000000000000001', 'hex').copy(addresses, 0);
    const tlv = Buffer.concat([Buffer.from([0xea, 0x01, 0x2c]), Buffer.alloc(300, 0x61)]);
    const header = headerOf(0x21, 0x21, Buffer.concat([addresses, tlv]));
    expect(readProxyHeader(header)).toEqual({ kind: 'proxied', sourceAddress: '2001:db8:0:0:0:0:0:1', headerBytes: header.length });
  });

  it.each([
    ['LOCAL, as health checks send it', 0x20, 0x00],
    ['PROXY with no address family', 0x21, 0x00],
  ])('takes a header of %s as the balancer’s own connection', (_name, versionCommand, family) => {
    expect(readProxyHeader(headerOf(versionCommand, family, Buffer.alloc(0)))).toEqual({ kind: 'local', headerBytes: 16 });
  });

  it('waits for the rest of a header that has not all arrived', () => {
    const header = proxyHeaderV4('203.0.113.7', 40_001);
    expect(readProxyHeader(header.subarray(0, 5))).toBeUndefined();
    expect(readProxyHeader(header.subarray(0, 20))).toBeUndefined();
  });

  it.each([
    ['bytes that are not the signature', Buffer.from('000f333536', 'hex')],
    ['version 1', headerOf(0x11, 0x11, Buffer.alloc(12))],
    ['a header over 1,024 bytes', headerOf(0x21, 0x11, Buffer.alloc(1100))],
    ['a UNIX socket family', headerOf(0x21, 0x31, Buffer.alloc(216))],
  ])('refuses %s', (_name, bytes) => {
    expect(() => readProxyHeader(bytes)).toThrow(ProxyHeaderRefused);
  });
});
