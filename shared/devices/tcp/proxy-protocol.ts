/**
 * PROXY protocol version 2 (haproxy.org/download/2.9/doc/proxy-protocol.txt), which the Network Load Balancer puts
 * before a connection's bytes when its target group says so: the device server reads the unit's own address from it,
 * since every connection comes from the balancer's. Only the header; its TLVs are skipped.
 */
import { BytesRefused } from './protocol.ts';

const SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
const HEADER_BYTES = 16;
/** The longest header read (addresses and TLVs): the NLB's few TLVs fit many times over; longer is not a balancer's. */
export const MAX_PROXY_HEADER_BYTES = 1024;

export type ProxyHeader =
  /** LOCAL: the balancer's own connection (its health check): the socket's address is the one */
  { kind: 'local'; headerBytes: number } | { kind: 'proxied'; sourceAddress: string; headerBytes: number };

export class ProxyHeaderRefused extends BytesRefused {
  constructor(message: string) {
    super('framing', message);
  }
}

/** The header at the start of `bytes`: undefined while incomplete; ProxyHeaderRefused when it is not one. */
export function readProxyHeader(bytes: Buffer): ProxyHeader | undefined {
  const seen = Math.min(bytes.length, SIGNATURE.length);
  if (!bytes.subarray(0, seen).equals(SIGNATURE.subarray(0, seen))) throw new ProxyHeaderRefused('no PROXY protocol v2 signature');
  if (bytes.length < HEADER_BYTES) return undefined;
  const versionCommand = bytes[12] as number;
  if (versionCommand >> 4 !== 2) throw new ProxyHeaderRefused(`PROXY protocol version ${versionCommand >> 4}`);
  const headerBytes = HEADER_BYTES + bytes.readUInt16BE(14);
  if (headerBytes > MAX_PROXY_HEADER_BYTES) throw new ProxyHeaderRefused(`a PROXY header of ${headerBytes} bytes`);
  if (bytes.length < headerBytes) return undefined;
  const family = (bytes[13] as number) >> 4;
  // The NLB's health checks carry the header without the client's address (LOCAL, or AF_UNSPEC)
  if ((versionCommand & 0x0f) === 0 || family === 0) return { kind: 'local', headerBytes };
  if (family === 1 && headerBytes >= HEADER_BYTES + 12) {
    return { kind: 'proxied', sourceAddress: [...bytes.subarray(16, 20)].join('.'), headerBytes };
  }
  if (family === 2 && headerBytes >= HEADER_BYTES + 36) {
    const groups = Array.from({ length: 8 }, (_, n) => bytes.readUInt16BE(16 + 2 * n).toString(16));
    return { kind: 'proxied', sourceAddress: groups.join(':'), headerBytes };
  }
  throw new ProxyHeaderRefused(`PROXY protocol address family ${family}`);
}

/** The header the balancer sends for a TCP/IPv4 connection (the tests' and the benchmark's stand-in for the NLB). */
export function proxyHeaderV4(sourceAddress: string, sourcePort: number, destinationAddress = '10.0.0.1', destinationPort = 5027): Buffer {
  const header = Buffer.alloc(HEADER_BYTES + 12);
  SIGNATURE.copy(header, 0);
  header[12] = 0x21;
  header[13] = 0x11;
  header.writeUInt16BE(12, 14);
  Buffer.from(sourceAddress.split('.').map(Number)).copy(header, 16);
  Buffer.from(destinationAddress.split('.').map(Number)).copy(header, 20);
  header.writeUInt16BE(sourcePort, 24);
  header.writeUInt16BE(destinationPort, 26);
  return header;
}
