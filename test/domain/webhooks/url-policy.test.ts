import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressRefusal, parseWebhookUrl, portRefusal } from '../../../shared/domain/webhooks/url-policy.ts';

const deployed = { allowLocal: false };
const local = { allowLocal: true };

/** IANA's IPv4 Special-Purpose Address Registry, every entry, with multicast and the rest of 240/4 (not unicast). */
const IPV4_SPECIAL: [string, string][] = [
  ['0.0.0.0/8', '"this network"'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared address space'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local, the metadata address'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation (TEST-NET-1)'],
  ['192.31.196.0/24', 'AS112-v4'],
  ['192.52.193.0/24', 'AMT'],
  ['192.88.99.0/24', 'deprecated 6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['192.175.48.0/24', 'direct delegation AS112'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation (TEST-NET-2)'],
  ['203.0.113.0/24', 'documentation (TEST-NET-3)'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved, and the limited broadcast address'],
];

/** IANA's IPv6 Special-Purpose Address Registry, every entry not judged as an embedded IPv4, and the IETF's reserved space. */
const IPV6_SPECIAL: [string, string][] = [
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['::7f00:1', 'IPv4-compatible (deprecated), of 127.0.0.1'],
  ['::808:808', 'IPv4-compatible (deprecated), of a public address'],
  ['::ffff:0:7f00:1', 'IPv4-translated'],
  ['64:ff9b:1::a00:1', 'local-use NAT64'],
  ['64:ff9b:1::808:808', 'local-use NAT64, whatever it embeds'],
  ['100::1', 'discard-only'],
  ['100:0:0:1::1', 'dummy prefix'],
  ['2001::1', 'Teredo'],
  ['2001:1::1', 'port control protocol anycast'],
  ['2001:2::1', 'benchmarking'],
  ['2001:3::1', 'AMT'],
  ['2001:4:112::1', 'AS112-v6'],
  ['2001:10::1', 'deprecated ORCHID'],
  ['2001:20::1', 'ORCHIDv2'],
  ['2001:30::1', 'drone remote ID'],
  ['2001:1ff::1', 'the rest of the IETF protocol assignments'],
  ['2001:db8::1', 'documentation'],
  ['2002:7f00:1::', '6to4'],
  ['2620:4f:8000::1', 'direct delegation AS112'],
  ['3fff::1', 'documentation'],
  ['3fff:fff::1', 'documentation, its last /32'],
  ['5f00::1', 'segment routing SIDs'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fec0::1', 'deprecated site-local'],
  ['ff02::1', 'multicast'],
  ['4000::1', 'reserved by the IETF (outside 2000::/3)'],
];

const dotted = (n: number): string => [24, 16, 8, 0].map((shift) => (n >>> shift) & 255).join('.');
const hex = (n: number, pad = 8): string => n.toString(16).padStart(pad, '0');

/** A network's first address and its size, from a.b.c.d/len. */
function network(cidr: string): { first: number; size: number } {
  const [address, length] = cidr.split('/') as [string, string];
  const first = address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
  return { first, size: 2 ** (32 - Number(length)) };
}

/** Any address of one of the blocks: the block's first, last or any address between. */
const specialIpv4 = fc
  .constantFrom(...IPV4_SPECIAL.map(([cidr]) => network(cidr)))
  .chain(({ first, size }) =>
    fc.oneof(fc.constant(first), fc.constant(first + size - 1), fc.integer({ min: first, max: first + size - 1 })),
  );

/** Every way a URL's host can name the IPv4 address n: dotted, one number in decimal, hex and octal, mixed parts, IPv6 forms. */
const urlHosts = (n: number): string[] => [
  dotted(n),
  String(n),
  `0x${hex(n)}`,
  `0${n.toString(8)}`,
  `0x${hex(n >>> 24, 2)}.${n & 0xffffff}`,
  `0${(n >>> 24).toString(8)}.${(n >>> 16) & 255}.${n & 0xffff}`,
  `[::ffff:${dotted(n)}]`,
  `[64:ff9b::${dotted(n)}]`,
];

describe('addressRefusal', () => {
  it.each(IPV4_SPECIAL)('refuses %s (%s) from its first address to its last', (cidr) => {
    const { first, size } = network(cidr);
    for (const n of [first, first + 1, first + size - 1])
      expect(addressRefusal(dotted(n), deployed)).toBe(`${dotted(n)} is not a public address`);
  });

  it.each(IPV6_SPECIAL)('refuses %s (%s)', (address) => {
    expect(addressRefusal(address, deployed)).toBe(`${address} is not a public address`);
  });

  it('judges an IPv4 written as IPv6 (mapped, or under the well-known NAT64 prefix) as that IPv4, in whichever block', () => {
    fc.assert(
      fc.property(specialIpv4, (n) => {
        for (const form of [`::ffff:${dotted(n)}`, `::ffff:${hex(n >>> 16, 1)}:${hex(n & 0xffff, 1)}`, `64:ff9b::${dotted(n)}`])
          expect(addressRefusal(form, deployed)).toBe(`${form} is not a public address`);
      }),
    );
  });

  it.each(['8.8.8.8', '93.184.215.14', '100.128.0.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'accepts the public address %s',
    (address) => {
      expect(addressRefusal(address, deployed)).toBeUndefined();
    },
  );

  it('accepts loopback only under npm start, and nothing else private there', () => {
    expect(addressRefusal('127.0.0.1', local)).toBeUndefined();
    expect(addressRefusal('::1', local)).toBeUndefined();
    expect(addressRefusal('::ffff:127.0.0.1', local)).toBeUndefined();
    expect(addressRefusal('169.254.169.254', local)).toBe('169.254.169.254 is not a public address');
    expect(addressRefusal('10.0.0.1', local)).toBe('10.0.0.1 is not a public address');
    expect(addressRefusal('::127.0.0.1', local)).toBe('::127.0.0.1 is not a public address');
  });
});

describe('portRefusal', () => {
  it.each([
    [443, '8.8.8.8', deployed, undefined],
    [8443, '8.8.8.8', deployed, undefined],
    [80, '8.8.8.8', deployed, 'port 80 is not allowed (443 or 8443 only)'],
    [22, '8.8.8.8', deployed, 'port 22 is not allowed (443 or 8443 only)'],
    [9000, '8.8.8.8', local, 'port 9000 is not allowed (443 or 8443 only)'],
    [9000, '127.0.0.1', local, undefined],
    [9000, '::1', local, undefined],
    [9000, '127.0.0.1', deployed, 'port 9000 is not allowed (443 or 8443 only)'],
  ])('judges port %i at %s (%o): %s', (port, address, policy, refusal) => {
    expect(portRefusal(port, address, policy)).toBe(refusal);
  });
});

describe('parseWebhookUrl', () => {
  it('refuses http in a deployed stack and accepts it under npm start', () => {
    expect(parseWebhookUrl('http://127.0.0.1:9000/hook', deployed)).toEqual({ refusal: 'the scheme must be https' });
    expect(parseWebhookUrl('http://127.0.0.1:9000/hook', local)).toMatchObject({ url: new URL('http://127.0.0.1:9000/hook') });
  });

  it('reads an IPv4 address however it is written (decimal, hex, octal, short and mixed forms)', () => {
    for (const url of ['https://2130706433/', 'https://0x7f000001/', 'https://127.1/', 'https://0177.0.0.1/', 'https://017700000001/'])
      expect(parseWebhookUrl(url, deployed)).toEqual({ refusal: '127.0.0.1 is not a public address' });
  });

  it('refuses every address of every special block in every form a URL can write it', () => {
    fc.assert(
      fc.property(specialIpv4, (n) => {
        for (const host of urlHosts(n)) expect(parseWebhookUrl(`https://${host}/hooks`, deployed)).toHaveProperty('refusal');
      }),
    );
  });

  it('gives every form of one address the same verdict, so no spelling reaches what another is refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (n) => {
        const verdicts = urlHosts(n).map((host) => 'refusal' in parseWebhookUrl(`https://${host}/hooks`, deployed));
        expect(new Set(verdicts).size).toBe(1);
      }),
    );
  });

  it.each([
    ['https://[::127.0.0.1]/', '::7f00:1 is not a public address'],
    ['https://[::a9fe:a9fe]/', '::a9fe:a9fe is not a public address'],
    ['https://[::ffff:0:7f00:1]/', '::ffff:0:7f00:1 is not a public address'],
    ['https://[64:ff9b::10.0.0.1]/', '64:ff9b::a00:1 is not a public address'],
    ['https://[64:ff9b:1::10.0.0.1]/', '64:ff9b:1::a00:1 is not a public address'],
    ['https://[3fff::1]/', '3fff::1 is not a public address'],
    ['https://[5f00::1]/', '5f00::1 is not a public address'],
    ['https://[2001:db8::1]/', '2001:db8::1 is not a public address'],
    ['https://93.184.215.14:8080/', 'port 8080 is not allowed (443 or 8443 only)'],
    ['https://[2606:4700:4700::1111]:22/', 'port 22 is not allowed (443 or 8443 only)'],
    ['https://127.0.0.1:8443/', '127.0.0.1 is not a public address'],
  ])('refuses %s in a deployed stack: %s', (url, refusal) => {
    expect(parseWebhookUrl(url, deployed)).toEqual({ refusal });
  });

  it('leaves a host name, and its port, to be judged after the lookup (checkWebhookUrl)', () => {
    expect(parseWebhookUrl('https://hooks.example.com/x', deployed)).toMatchObject({ url: new URL('https://hooks.example.com/x') });
    expect(parseWebhookUrl('https://hooks.example.com:22/x', deployed)).toMatchObject({ url: new URL('https://hooks.example.com:22/x') });
    expect(parseWebhookUrl('http://localhost:8080/x', local)).toMatchObject({ url: new URL('http://localhost:8080/x') });
  });
});
