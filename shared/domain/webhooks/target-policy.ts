/**
 * Which addresses a webhook may be delivered to (docs/webhooks.md, "Never a door into the network"). A webhook URL
 * is a request the service makes on a user's behalf, so a deployed stack reaches only public unicast addresses over
 * https; `npm start` also allows http and loopback so a developer can receive on 127.0.0.1. The same check runs when
 * a webhook is added or edited and at every delivery, against the address the host resolves to then.
 */
import { BlockList, isIP } from 'node:net';

/** `url is not allowed: <reason>`, the 400 of addWebhook and editWebhook. */
export const urlNotAllowed = (reason: string): string => `url is not allowed: ${reason}`;

export interface TargetPolicy {
  /** npm start: http and loopback addresses are allowed */
  allowLocal: boolean;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Everything that is not a public unicast address (IANA special-purpose registries), loopback included. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", the unspecified address
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local: the cloud's metadata address 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64 of an IPv4 address
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID...)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds any IPv4 address
  ['fc00::', 7], // unique local (private)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:xxxx:xxxx) stands for. */
function mappedIpv4(address: string): string | undefined {
  const match = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = Number.parseInt(match[2] as string, 16);
  const low = Number.parseInt(match[3] as string, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Why an address may not be delivered to, or undefined when it may. */
export function addressRefusal(address: string, policy: TargetPolicy): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return `${address} is not an IP address`;
  const mapped = family === 6 ? mappedIpv4(bare) : undefined;
  const [checked, type] = mapped ? [mapped, 'ipv4' as const] : [bare, family === 4 ? ('ipv4' as const) : ('ipv6' as const)];
  if (policy.allowLocal && LOOPBACK.check(checked, type)) return undefined;
  if (NOT_PUBLIC.check(checked, type)) return `${address} is not a public address`;
  return undefined;
}

/** A URL's parts the delivery needs, or why it is refused before any address is looked up. */
export function parseTarget(text: string, policy: TargetPolicy): { url: URL } | { refusal: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { refusal: 'not an absolute URL' };
  }
  if (url.protocol !== 'https:' && !(policy.allowLocal && url.protocol === 'http:'))
    return { refusal: policy.allowLocal ? 'the scheme must be https or http' : 'the scheme must be https' };
  if (url.username || url.password) return { refusal: 'credentials in the URL are not allowed' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const refusal = addressRefusal(host, policy);
    if (refusal) return { refusal };
  }
  return { url };
}

/** The host to resolve, or undefined when the URL names an IP address (already checked by parseTarget). */
export const hostToResolve = (url: URL): string | undefined => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? undefined : host;
};
