/**
 * The device entry points' own authentication (they sit outside the api-key middleware): the token from the path
 * (`/devices/osmand/{token}`: the apps only take a URL) or an `Authorization: Bearer` header (what Traccar's
 * forward.header sends). Found tokens are cached at most 60 s, so a revoked one stops within a minute; unknown ones
 * are remembered for 10 s, so guesses cost no table read each.
 */
import { Unauthorized } from '../errors.ts';
import { type CredentialMemoryOptions, credentialMemory } from './credential-memory.ts';
import { type HttpMiddleware, type HttpRequest, headerValue } from './types.ts';

export interface TokenOwner {
  userUid: number;
  revoked: boolean;
}

export interface DeviceTokenAuthOptions extends CredentialMemoryOptions {
  /** the owner of the token with this hash, or undefined when there is none */
  findTokenOwner: (tokenHash: string) => Promise<TokenOwner | undefined>;
  hashToken: (token: string) => string;
}

/** Puts the token's user and hash in request.internal (read with tokenUserOf). */
export const deviceTokenAuth = ({ findTokenOwner, hashToken, ...memory }: DeviceTokenAuthOptions): HttpMiddleware => {
  const lookUp = credentialMemory(findTokenOwner, memory);

  const deviceTokenAuthBefore = async (request: HttpRequest): Promise<void> => {
    const token = presentedToken(request);
    if (!token) throw new Unauthorized('device token missing');
    const tokenHash = hashToken(token);
    const owner = await lookUp(tokenHash);
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
