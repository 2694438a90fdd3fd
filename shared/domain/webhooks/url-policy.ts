/**
 * Which addresses and ports a webhook may be delivered to (docs/webhooks.md, "Never a door into the network"). A
 * webhook URL is a request the service makes on a user's behalf, so a deployed stack reaches only public unicast
 * addresses, over https, on the ports of DELIVERY_PORTS; `npm start` also allows http and loopback addresses on any
 * port so a developer can receive on 127.0.0.1. The same check runs when a webhook is added or edited and at every
 * delivery, against every address the host resolves to then.
 *
 * Addresses are classified by ipaddr.js (its ranges follow IANA's special-purpose registries); the blocks it leaves
 * as `unicast` that are not public are added below, each with the RFC that reserves it.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** `url is not allowed: <reason>`, the 400 of addWebhook and editWebhook. */
export const urlNotAllowed = (reason: string): string => `url is not allowed: ${reason}`;

export interface UrlPolicy {
  /** npm start: http, and loopback addresses on any port, are allowed */
  allowLocal: boolean;
}

/** The ports a deployed stack delivers to: https's own and its common alternative. */
export const DELIVERY_PORTS: readonly number[] = [443, 8443];

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const block = (cidr: string): [Address, number] => ipaddr.parseCIDR(cidr);

/**
 * The IPv6 blocks the policy names, parsed when an IPv6 address is first judged: most hosts resolve to IPv4 only, and
 * parsing them at module init cost every cold start of a webhook function 0.7 ms (ipaddr.js's IPv6 parser compiled).
 */
let ipv6Blocks: { globalUnicast: [Address, number]; nat64: [Address, number]; unlistedSpecial: [Address, number][] } | undefined;
const ipv6BlocksOf = () =>
  (ipv6Blocks ??= {
    /** RFC 4291 §2.4 and IANA's IPv6 Address Space registry: only 2000::/3 is global unicast, the rest is reserved or special. */
    globalUnicast: block('2000::/3'),
    /** RFC 6052 §2.1: the well-known NAT64 prefix, under which DNS64 answers an IPv4-only host as 64:ff9b::<its IPv4>. */
    nat64: block('64:ff9b::/96'),
    /**
     * Not public though ipaddr.js calls them `unicast` (it names neither the IETF's reserved space nor these): the
     * IPv4-compatible ::a.b.c.d (RFC 4291 §2.5.5.1, deprecated) and the rest of ::/8 fall outside 2000::/3 above; these
     * are inside it.
     */
    unlistedSpecial: [
      block('2001::/23'), // RFC 2928: IETF protocol assignments, whatever ipaddr.js names inside it
      block('2001:db8::/32'), // RFC 3849: documentation
      block('3fff::/20'), // RFC 9637: documentation
      block('2620:4f:8000::/48'), // RFC 7534: AS112 direct delegation
    ],
  });

/** The IPv4 address an IPv6 address stands for when it embeds one the network will reach (mapped, or NAT64's well-known prefix). */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  if (address.match(ipv6BlocksOf().nat64)) return ipaddr.fromByteArray(address.toByteArray().slice(12)) as ipaddr.IPv4;
  return undefined;
}

/** The address as it will be reached: an IPv4 written as IPv6 is judged as that IPv4. */
const reached = (address: Address): Address => (address.kind() === 'ipv6' ? (embeddedIpv4(address as ipaddr.IPv6) ?? address) : address);

const isPublic = (address: Address): boolean => {
  if (address.range() !== 'unicast') return false;
  if (address.kind() === 'ipv4') return true;
  const { globalUnicast, unlistedSpecial } = ipv6BlocksOf();
  return address.match(globalUnicast) && !unlistedSpecial.some((special) => address.match(special));
};

const isLoopback = (address: Address): boolean => address.range() === 'loopback';

/**
 * The address text parses to, judged as reached. IPv6 is first written out in hex by the URL standard's serializer:
 * ipaddr.js reads any dotted tail as IPv4-mapped (::127.0.0.1, IPv4-compatible, would pass as ::ffff:127.0.0.1).
 */
const parsed = (text: string): Address | undefined => {
  const bare = text.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  // a zone id (fe80::1%eth0) is no URL host: not an address a webhook can name
  const text6 = family === 6 && URL.canParse(`http://[${bare}]`) ? new URL(`http://[${bare}]`).hostname.slice(1, -1) : undefined;
  if (family === 4) return reached(ipaddr.parse(bare));
  return text6 === undefined ? undefined : reached(ipaddr.parse(text6));
};

/** Under npm start a loopback address may be reached whatever its port. */
const isLocal = (address: Address, policy: UrlPolicy): boolean => policy.allowLocal && isLoopback(address);

/** Why an address may not be delivered to, or undefined when it may. */
export function addressRefusal(text: string, policy: UrlPolicy): string | undefined {
  const address = parsed(text);
  if (!address) return `${text} is not an IP address`;
  return isLocal(address, policy) || isPublic(address) ? undefined : `${text} is not a public address`;
}

/** Why a port may not be delivered to at this (allowed) address, or undefined when it may. */
export function portRefusal(port: number, text: string, policy: UrlPolicy): string | undefined {
  const address = parsed(text);
  if (DELIVERY_PORTS.includes(port) || (address && isLocal(address, policy))) return undefined;
  return `port ${port} is not allowed (${DELIVERY_PORTS.join(' or ')} only)`;
}

/** The URL's port, its scheme's default when it names none. */
export const portOf = (url: URL): number => Number(url.port || (url.protocol === 'http:' ? 80 : 443));

/** A URL's parts the delivery needs, or why it is refused before any address is looked up. */
export function parseWebhookUrl(text: string, policy: UrlPolicy): { url: URL } | { refusal: string } {
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
  // A name's address is judged before its port, as an address's is: after the lookup (checkWebhookUrl).
  const refusal = isIP(host) ? (addressRefusal(host, policy) ?? portRefusal(portOf(url), host, policy)) : undefined;
  return refusal ? { refusal } : { url };
}

/** The host to resolve, or undefined when the URL names an IP address (already checked by parseWebhookUrl). */
export const hostToResolve = (url: URL): string | undefined => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? undefined : host;
};
