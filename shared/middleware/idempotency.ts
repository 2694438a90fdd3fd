import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY } from '../contracts/wire.ts';
import { BadRequest, Conflict } from '../errors.ts';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, type StoredAnswer } from '../store/idempotency.ts';
import { authenticatedUser, type HttpMiddleware, type HttpRequest, headerValue, type ParseRequestOptions } from './types.ts';

/** The same key within 24 h answers the first answer again (integrators retry after timeouts). */
export const IDEMPOTENCY_RETENTION_S = 24 * 60 * 60;
/** Longer than a function's 10 s timeout: a claim older than this belongs to a function that died. */
export const IDEMPOTENCY_LOCK_S = 15;

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * The secrets a replayed answer may show again now, read back from where they live (a webhook's current secret):
 * none once the record that holds them changed or is gone.
 */
export type LiveSecrets = (userUid: number, answer: Readonly<Record<string, unknown>>) => Promise<readonly string[]>;

export interface IdempotencyOptions extends ParseRequestOptions {
  /** the answer's fields that hold a secret shown once (OperationDeclaration.secretFields) */
  secretFields?: readonly string[] | undefined;
  liveSecrets?: LiveSecrets | undefined;
}

/**
 * Honours an optional Idempotency-Key header on a create: the first request claims the key (a conditional write,
 * so of concurrent requests exactly one runs); a retry with the same request gets the first answer in
 * request.internal.replay and creates nothing; the same key with another request is a conflict.
 * Runs after validation, so a request refused for its input never holds a key.
 * A secret in the answer is never stored: the record keeps its hash, and a replay answers the secret only while it is
 * still live, else null, so a secret retired or deleted since is not shown again.
 */
export const idempotency = (
  operation: string,
  { jsonBody = 'params', secretFields = [], liveSecrets }: IdempotencyOptions = {},
): HttpMiddleware => {
  if (secretFields.length > 0 && !liveSecrets) throw new Error(`${operation} declares secretFields without liveSecrets`);
  const idempotencyBefore = async (request: HttpRequest): Promise<void> => {
    const idempotencyKey = headerValue(request.event, IDEMPOTENCY_HEADER);
    if (idempotencyKey === undefined) return;
    if (!IDEMPOTENCY_KEY.test(idempotencyKey)) throw new BadRequest('invalid Idempotency-Key: 1 to 255 printable ASCII characters');
    const scope = { userUid: authenticatedUser(request).userUid, operation, idempotencyKey };
    const fingerprint = fingerprintOf(request, jsonBody === 'payload');
    const claim = await claimIdempotencyKey(scope, fingerprint, IDEMPOTENCY_RETENTION_S, IDEMPOTENCY_LOCK_S);
    if (claim.claimed) {
      request.internal.idempotency = { scope, fingerprint };
      return;
    }
    if (claim.existing.fingerprint !== fingerprint) throw new Conflict('Idempotency-Key already used with a different request');
    if (claim.existing.status === 'in-progress') throw new Conflict('a request with this Idempotency-Key is still in progress');
    request.internal.replay = await reopened(claim.existing, scope.userUid);
  };

  /** The stored answer with each secret field holding the live secret of its hash, or null when none is live now. */
  const reopened = async ({ answer, secretHashes }: StoredAnswer, userUid: number): Promise<Record<string, unknown>> => {
    if (secretFields.length === 0 || !liveSecrets) return answer;
    // a record stored before answers were sealed holds the secret itself: judged by its hash all the same
    const hashes = secretHashes ?? sealed(answer, secretFields).secretHashes ?? {};
    const live = new Map((await liveSecrets(userUid, answer)).map((secret) => [secretHash(secret), secret]));
    return { ...answer, ...Object.fromEntries(secretFields.map((field) => [field, live.get(hashes[field] ?? '') ?? null])) };
  };

  // Registered last, so its after runs first: right after the handler, before anything else can fail.
  const idempotencyAfter = async (request: HttpRequest): Promise<void> => {
    const state = request.internal.idempotency;
    if (!state) return;
    state.created = true;
    await completeIdempotencyKey(state.scope, sealed(request.response as unknown as Record<string, unknown>, secretFields));
  };

  /**
   * A request that failed before its handler finished created nothing: its key is released for the client's retry.
   * One whose record was created but whose answer could not be kept holds its claim, so a retry is told the request
   * is still in progress rather than creating the record again (until the claim's lock runs out).
   */
  const idempotencyOnError = async (request: HttpRequest): Promise<void> => {
    const state = request.internal.idempotency;
    if (state && !state.created) await releaseIdempotencyKey(state.scope, state.fingerprint);
  };
  return { name: 'idempotency', before: idempotencyBefore, after: idempotencyAfter, onError: idempotencyOnError };
};

/**
 * The answer as stored: each secret field null, its SHA-256 beside it. A secret is 32 random bytes, so its hash
 * tells nothing of it and needs no salt; it only recognises the secret when it is read back.
 */
function sealed(answer: Record<string, unknown>, secretFields: readonly string[]): StoredAnswer {
  const present = secretFields.filter((field) => typeof answer[field] === 'string');
  if (present.length === 0) return { answer };
  return {
    answer: { ...answer, ...Object.fromEntries(present.map((field) => [field, null])) },
    secretHashes: Object.fromEntries(present.map((field) => [field, secretHash(answer[field] as string)])),
  };
}

const secretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** What makes two requests the same: the validated input and, for document bodies, the exact payload. */
function fingerprintOf(request: HttpRequest, bodyIsPayload: boolean): string {
  const body = request.internal.body;
  const payload = bodyIsPayload && body && body.kind !== 'none' ? body.text : '';
  return createHash('sha256').update(stableJson(request.internal.input)).update('\n').update(payload).digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([name, field]) => `${JSON.stringify(name)}:${stableJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
