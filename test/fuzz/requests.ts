/**
 * Whole HTTP requests for one operation: its parameters (plausible or hostile, sometimes repeated,
 * with stray names) sent as a query string, a form, JSON or a broken body, under any content type,
 * with the key in the header, in the parameters, wrong or missing, and now and then the wrong method
 * or a body over the limit.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { Operation } from '../../functions/registry.ts';
import { MAX_BODY_BYTES } from '../../shared/middleware/parse-request.ts';
import { asJson, type FuzzValue, hostile, type KnownUser, nasty, plausible, RawJson, strayName } from './values.ts';

export interface FuzzRequest {
  method: string;
  /** the raw query string, without '?' */
  query: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** a valid key sits where the service looks first, so a success is allowed */
  keyed: boolean;
  /** the one status the request must draw, when the case pins it (wrong method, oversized body) */
  expectedStatus?: number;
}

type Pair = readonly [string, FuzzValue];
type KeyPlacement = 'param' | 'header' | 'bogus' | 'bogus-header' | 'none';
type Encoding = 'query' | 'form' | 'json' | 'raw';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'APPLICATION/X-WWW-FORM-URLENCODED; charset=latin1',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  'image/png',
  ';;;',
  '*/*',
];
const QUERY_JUNK = [
  '&',
  '&&',
  '=',
  '&=x',
  '&api_key',
  '%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%FF%FE',
  '+',
  ';x=1',
  '#x',
  '?',
  '[]=1',
  '&a=1&a=2&a=3',
];
/** Non-blank header values that are not keys (a blank X-Api-Key falls back to the parameter). */
const BOGUS_HEADER_KEYS = ['x', "' OR 1=1 --", 'null', '{"$ne":null}', 'a'.repeat(5000), '%00', 'Bearer abc'];
/** The node:http server's header limit is 16 KB; API Gateway has its own. Queries stay below both. */
const MAX_QUERY = 8_000;

const asText = (value: FuzzValue): string =>
  typeof value === 'string' ? value : value instanceof RawJson ? value.text : JSON.stringify(value);
const encode = (text: string): string => encodeURIComponent(text.toWellFormed());

const formText = (pairs: readonly Pair[]): string => pairs.map(([name, value]) => `${encode(name)}=${encode(asText(value))}`).join('&');
const jsonText = (pairs: readonly Pair[]): string =>
  `{${pairs.map(([name, value]) => `${JSON.stringify(name)}:${asJson(value)}`).join(',')}}`;
const multipartText = (pairs: readonly Pair[]): string =>
  `${pairs.map(([name, value]) => `--x\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${asText(value)}\r\n`).join('')}--x--\r\n`;

/** Bodies no parameter parser should choke on: broken, mislabelled, binary, nested past any sane depth. */
const brokenBody = (pairs: readonly Pair[]): fc.Arbitrary<string | Buffer> => {
  const json = jsonText(pairs);
  return fc.oneof(
    fc.nat().map((cut) => json.slice(0, cut % Math.max(json.length, 1))),
    fc.constantFrom(
      `[${json}]`,
      json + json,
      `${json} trailing`,
      `"${formText(pairs)}"`,
      multipartText(pairs),
      `${formText(pairs)}&%zz=%%&=&&%E0%A4%A=1`,
    ),
    fc.constantFrom('null', '0', '"text"', '[]', '""', 'true', '{', '}', '{"', '[{', '\u0000', ' ', '\n', '{}', '[1,2,3]', '{"a":}'),
    fc.constantFrom(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]), Buffer.from(json, 'utf16le'), gzipSync(json)),
    fc.constant('<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>'),
    fc.uint8Array({ maxLength: 2048 }).map((bytes) => Buffer.from(bytes)),
    fc.constantFrom(1000, 100_000).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
    fc.constantFrom(1000, 40_000).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
    fc.constantFrom(1000, 40_000).map((count) => 'x=1&'.repeat(count)),
  );
};

/**
 * The parameters: all plausible (a valid request, mostly), all plausible but one hostile value (so it gets
 * past the other checks to the store), or anything; then maybe a repeated or stray name.
 */
function parameters(names: readonly string[], own: KnownUser, everyone: readonly KnownUser[], maxLength: number): fc.Arbitrary<Pair[]> {
  const valid = fc.tuple(...names.map((name) => plausible(name, own, everyone).map((value): Pair => [name, value])));
  const oneHostile = fc
    .tuple(valid, fc.nat(Math.max(names.length - 1, 0)), hostile(maxLength))
    .map(([pairs, index, value]) => pairs.map((pair, at): Pair => (at === index ? [pair[0], value] : pair)));
  const anything = fc.tuple(
    ...names.map((name) =>
      fc.option(
        fc.oneof(plausible(name, own, everyone), hostile(maxLength)).map((value): Pair => [name, value]),
        { freq: 4, nil: undefined },
      ),
    ),
  );
  const given = fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 3, arbitrary: oneHostile },
    { weight: 2, arbitrary: anything.map((pairs) => pairs.filter((pair): pair is Pair => pair !== undefined)) },
  );
  const extraName = names.length ? fc.oneof(fc.constantFrom(...names), strayName) : strayName;
  const extra = extraName.chain((name) => fc.oneof(plausible(name, own, everyone), hostile(maxLength)).map((value): Pair => [name, value]));
  return fc
    .tuple(given, fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, fc.array(extra, { minLength: 1, maxLength: 3 })), fc.boolean())
    .map(([present, extras, extrasFirst]): Pair[] => (extrasFirst ? [...extras, ...present] : [...present, ...extras]));
}

interface Draft {
  method: string;
  pairs: Pair[];
  placement: KeyPlacement;
  bogusKey: string;
  bogusHeader: string;
  keyInQuery: boolean;
  /** POST only: the parameters in the query string too (the body's win) */
  alsoInQuery: boolean;
  encoding: Encoding;
  contentType: string | undefined;
  junk: string;
}

export function fuzzRequests(operation: Operation, names: readonly string[], users: readonly KnownUser[]): fc.Arbitrary<FuzzRequest> {
  const request = fc.constantFrom(...users).chain((user) => userRequests(operation, names, user, users));
  return fc.oneof({ weight: 30, arbitrary: request }, oversized(operation, users));
}

function userRequests(
  operation: Operation,
  names: readonly string[],
  user: KnownUser,
  users: readonly KnownUser[],
): fc.Arbitrary<FuzzRequest> {
  const post = operation.method === 'POST';
  const draft = fc.record<Draft>({
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constant(operation.method) },
      fc.constantFrom(...METHODS.filter((m) => m !== operation.method)),
    ),
    pairs: parameters(names, user, users, post ? 300_000 : 600),
    placement: fc.oneof(
      { weight: 6, arbitrary: fc.constant<KeyPlacement>('param') },
      { weight: 4, arbitrary: fc.constant<KeyPlacement>('header') },
      fc.constantFrom<KeyPlacement>('bogus', 'bogus-header', 'none'),
    ),
    bogusKey: nasty(600),
    bogusHeader: fc.constantFrom(...BOGUS_HEADER_KEYS),
    keyInQuery: fc.boolean(),
    alsoInQuery: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, fc.constant(true)),
    encoding: post
      ? fc.constantFrom<Encoding>('form', 'form', 'json', 'json', 'raw', 'query')
      : fc.constantFrom<Encoding>('query', 'query', 'query', 'query', 'form', 'json', 'raw'),
    contentType: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, fc.constantFrom(...CONTENT_TYPES)),
    junk: fc.oneof({ weight: 4, arbitrary: fc.constant('') }, fc.constantFrom(...QUERY_JUNK)),
  });
  return draft.chain((d) =>
    d.encoding === 'raw'
      ? brokenBody(d.pairs).map((raw) => assemble(operation, user.key, d, raw))
      : fc.constant(assemble(operation, user.key, d)),
  );
}

function assemble(operation: Operation, key: string, draft: Draft, raw?: string | Buffer): FuzzRequest {
  const { method, placement, encoding } = draft;
  const keyPair: Pair[] =
    placement === 'param' || placement === 'bogus-header' ? [['api_key', key]] : placement === 'bogus' ? [['api_key', draft.bogusKey]] : [];
  const inQuery = encoding === 'query' || encoding === 'raw' || draft.keyInQuery;
  const queryPairs = [...(inQuery ? keyPair : []), ...(encoding === 'query' || draft.alsoInQuery ? draft.pairs : [])];
  const bodyPairs = [...(inQuery ? [] : keyPair), ...draft.pairs];
  const body = encoding === 'form' ? formText(bodyPairs) : encoding === 'json' ? jsonText(bodyPairs) : raw;
  const headers: Record<string, string> = {};
  const contentType =
    draft.contentType ?? (body === undefined ? undefined : encoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json');
  if (contentType) headers['Content-Type'] = contentType;
  if (placement === 'header') headers['X-Api-Key'] = key;
  if (placement === 'bogus-header') headers['X-Api-Key'] = draft.bogusHeader;
  return described({
    method,
    query: (formText(queryPairs) + draft.junk).slice(0, MAX_QUERY),
    headers,
    body: body === undefined ? undefined : Buffer.from(body),
    keyed: placement === 'header' || placement === 'param',
    expectedStatus: method === operation.method ? undefined : 405,
  });
}

/** What a careful client sends: plausible parameters as a query or a form, the key in the header. */
export function wellFormedRequests(operation: Operation, names: readonly string[], users: readonly KnownUser[]): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...users).chain((user) =>
    fc.tuple(...names.map((name) => plausible(name, user, users).map((value): Pair => [name, value]))).map((pairs) =>
      assemble(operation, user.key, {
        method: operation.method,
        pairs,
        placement: 'header',
        bogusKey: '',
        bogusHeader: '',
        keyInQuery: false,
        alsoInQuery: false,
        encoding: operation.method === 'GET' ? 'query' : 'form',
        contentType: undefined,
        junk: '',
      }),
    ),
  );
}

/** A body over the service's limit: 413 with the right method (the method is checked first). */
const oversized = (operation: Operation, users: readonly KnownUser[]): fc.Arbitrary<FuzzRequest> =>
  fc
    .tuple(fc.constantFrom(...users.map((user) => user.key)), fc.integer({ min: 1, max: 64 * 1024 }), fc.constantFrom(...METHODS))
    .map(([key, over, method]) => {
      const prefix = `api_key=${key}&comment=`;
      return described({
        method,
        query: '',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: Buffer.from(prefix + 'x'.repeat(MAX_BODY_BYTES - prefix.length + over)),
        keyed: true,
        expectedStatus: method === operation.method ? 413 : 405,
      });
    });

/** How fast-check prints a counterexample: the request line, headers and the start of the body. */
function described(request: FuzzRequest): FuzzRequest {
  const body = request.body && `${request.body.length} bytes: ${JSON.stringify(request.body.subarray(0, 300).toString('utf8'))}`;
  const text = `${request.method} ?${request.query.slice(0, 500)} ${JSON.stringify(request.headers).slice(0, 300)} ${body ?? '(no body)'}`;
  return Object.assign(request, { [fc.toStringMethod]: () => text });
}
