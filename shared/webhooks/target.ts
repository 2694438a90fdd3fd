/**
 * A webhook URL checked against the target policy, its host resolved: at add and edit, and again before every
 * delivery, so a DNS answer that later points at a private address is caught (the delivery connects to the address
 * checked here, never to a second lookup's).
 */
import { lookup } from 'node:dns/promises';
import { config } from '../config.ts';
import { addressRefusal, hostToResolve, parseTarget, type TargetPolicy } from '../domain/webhooks/target-policy.ts';

export const targetPolicy = (): TargetPolicy => ({ allowLocal: config.webhookAllowLocalTargets() });

export type CheckedTarget = { url: URL; address: string } | { refusal: string };

export async function checkTarget(text: string, policy: TargetPolicy = targetPolicy()): Promise<CheckedTarget> {
  const parsed = parseTarget(text, policy);
  if ('refusal' in parsed) return parsed;
  const host = hostToResolve(parsed.url);
  if (host === undefined) return { url: parsed.url, address: parsed.url.hostname.replace(/^\[|\]$/g, '') };
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    return { refusal: `${host} does not resolve` };
  }
  // Every address must pass: a host with one public and one private answer could be steered to the private one.
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) return { refusal: `${host} resolves to ${refusal.replace(/^(\S+) /, '$1, which ')}` };
  }
  const [first] = addresses;
  if (!first) return { refusal: `${host} does not resolve` };
  return { url: parsed.url, address: first.address };
}
