/**
 * The device entry points' own authentication (they sit outside the api-key middleware): the token from the path
 * (`/devices/osmand/{token}`: the apps only take a URL) or an `Authorization: Bearer` header (what Traccar's
 * forward.header sends). Found tokens are cached at most 60 s, so a revoked one stops within a minute; unknown ones
 * are remembered for 10 s, so guesses cost no table read each.
 */
import { Unauthorized } from '../errors.ts';
import { expiringCache } from '../expiring-cache.ts';
import { MAX_KEY_CACHE_MS, UNKNOWN_CREDENTIAL_MEMORY_MS } from '../middleware/api-key-auth.ts';
import type { HttpMiddleware, HttpRequest } from '../middleware/types.ts';
import { headerValue } from '../middleware/types.ts';

export interface TokenOwner {
  userUid: number;
  revoked: boolean;
}

export interface DeviceTokenAuthOptions {
  /** the owner of the token with this hash, or undefined when there is none */
  findTokenOwner: (tokenHash: string) => Promise<TokenOwner | undefined>;
  hashToken: (token: string) => string;
  cacheTtlMs: number;
  now?: () => number;
}

/** What deviceTokenAuth puts in request.internal: the token's user and its hash (its bucket's name), for the handler. */
export type DeviceTokenAuthState = { deviceUserUid?: number; deviceTokenHash?: string };

/** Where the chain keeps the token's user for the handler. */
export function tokenUserOf(request: HttpRequest): number {
  const { deviceUserUid } = request.internal;
  if (deviceUserUid === undefined) throw new Error('no device user: deviceTokenAuth must run before the handler');
  return deviceUserUid;
}

export const deviceTokenAuth = ({ findTokenOwner, hashToken, cacheTtlMs, now }: DeviceTokenAuthOptions): HttpMiddleware => {
  const owners = expiringCache<TokenOwner>(Math.min(cacheTtlMs, MAX_KEY_CACHE_MS), now);
  // A token found unknown is answered 401 without a lookup for a moment: a stream of guesses costs no read each.
  const unknownTokens = expiringCache<true>(UNKNOWN_CREDENTIAL_MEMORY_MS, now);

  const deviceTokenAuthBefore = async (request: HttpRequest): Promise<void> => {
    const token = presentedToken(request);
    if (!token) throw new Unauthorized('device token missing');
    const tokenHash = hashToken(token);
    let owner = owners.get(tokenHash);
    if (!owner && !unknownTokens.get(tokenHash)) {
      owner = await findTokenOwner(tokenHash);
      if (owner) owners.set(tokenHash, owner);
      else unknownTokens.set(tokenHash, true);
    }
    if (!owner || owner.revoked) throw new Unauthorized('unknown or revoked device token');
    request.internal.deviceUserUid = owner.userUid;
    request.internal.deviceTokenHash = tokenHash;
  };
  return { name: 'deviceTokenAuth', before: deviceTokenAuthBefore };
};

function presentedToken({ event }: HttpRequest): string | undefined {
  const fromPath = event.pathParameters?.token?.trim();
  if (fromPath) return fromPath;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headerValue(event, 'authorization') ?? '')?.[1];
  return bearer || undefined;
}
