/**
 * Parameter values for the fuzzer: some look right for the parameter's name (so requests get past
 * the first check and reach the deeper ones and the store), the rest are built to break parsers.
 */
import fc from 'fast-check';

/** JSON text sent as is in a JSON body: literals JSON.stringify cannot write (1e309, -0, deep nesting, __proto__ keys). */
export class RawJson {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

export type FuzzValue = string | number | boolean | null | RawJson | FuzzValue[] | { [key: string]: FuzzValue };

/** A fuzz user: its key and its records, by the parameter that names them. */
export interface KnownUser {
  key: string;
  ids: Record<string, number[]>;
  imeis: string[];
}

const INJECTIONS = [
  "' OR '1'='1",
  '1; DROP TABLE vehicles; --',
  '" OR ""="',
  '1 UNION SELECT * FROM users',
  '{"$gt": ""}',
  '{"$ne": null}',
  '$where: sleep(1000)',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as plain text on purpose
  '${7*7}',
  '{{7*7}}',
  '`id`',
  '$(reboot)',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00',
  '%s%s%s%n',
  'attribute_not_exists(pk)',
  '#pk = :pk',
  'USER#1',
  'VEHICLE#1#',
  'pk',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '[object Object]',
  'data:image/png;base64,iVBORw0KGgo=',
  'http://169.254.169.254/latest/meta-data/',
];

const NUMBERS = [
  '1e309',
  '-1e309',
  '-0',
  '0',
  '-1',
  'NaN',
  'Infinity',
  '-Infinity',
  '9007199254740993',
  '99999999999999999999',
  '1e30',
  '1e-400',
  '0x1F',
  '0b11',
  '1_000',
  '1,5',
  '+5',
  '.5',
  '5.',
  '1.0',
  ' 7 ',
  '007',
  '١٢٣',
  '１２３',
  '4.9e-324',
  '1.7976931348623157e308',
  '123456789012345678901234567890.123',
  '0.0000000000000000000000000000001',
  '-90.0000001',
  '180.0000000001',
  '2147483648',
];

const DATES = [
  '2026-02-30',
  '2024-02-29',
  '0000-00-00',
  '0000-01-01',
  '0099-12-31',
  '0100-01-01',
  '1970-01-01',
  '9999-12-31',
  '2026-13-01',
  '2026-1-1',
  '2026-11-01T00:00:00Z',
  '2026-11-01 24:00:00',
  '2026-11-01 23:59:60',
  '2026-11-01 00:00',
  '+002026-11-01',
  '-000001-01-01',
  '2026/11/01',
  '01-11-2026',
  '2026-11-01 00:00:00.000',
  '2026-11-01\u00a000:00:00',
  '２０２６-１１-０１',
];

const UNICODE = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '\u202eevil\u202c',
  'مرحبا بالعالم',
  'שָׁלוֹם',
  '🚚🚛🛻',
  '👩‍👩‍👧‍👦',
  'Z̷̢̛̮̙a̸l̶g̵o̴',
  '\ufeff',
  '\u200b',
  '\u2028\u2029',
  '\r\n\t',
  'ǅ',
  'ﷺ',
  '𝕿𝖗𝖚𝖈𝖐',
  '\u0301',
  'İstanbul',
  '\\',
  '"',
  "'",
  '%',
  '+',
  '&',
  '=',
  ';',
  ',',
  ',,,',
  ' , ',
  '  ',
  '',
];

const LONG_TEXT_LENGTHS = [50, 100, 255, 256, 512, 513, 1001, 20_000, 70_000, 200_000];

/** Long text: around the 255/256 limits, and far beyond (POST bodies only: a query string has a header's size limit). */
const longText = (maxLength: number) =>
  fc
    .tuple(fc.constantFrom('a', 'é', '🚚', '\u0000', ' ', '9'), fc.constantFrom(...LONG_TEXT_LENGTHS))
    .filter(([, length]) => length <= maxLength)
    .map(([unit, length]) => unit.repeat(length));

export const nasty = (maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...INJECTIONS, ...NUMBERS, ...DATES, ...UNICODE),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'binary-ascii', maxLength: 40 }),
    fc.double().map(String),
    fc.bigInt().map(String),
    longText(maxLength),
  );

const deep = (open: string, inner: string, close: string) =>
  fc.constantFrom(10, 1000, 20_000).map((depth) => new RawJson(open.repeat(depth) + inner + close.repeat(depth)));

/** What a JSON body can carry where a scalar is expected. */
const jsonShapes: fc.Arbitrary<FuzzValue> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('1e309', '-0', '1E400', '-1e-400', '123456789012345678901234567890', '[]', '{}').map((text) => new RawJson(text)),
  fc.constant(new RawJson('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"toString":1}')),
  fc.constant(new RawJson('{"a":1,"a":2}')),
  fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 4 }),
  fc.dictionary(
    fc.constantFrom('lat', 'lng', 'user_location_uid', '__proto__', 'toString', 'length', '0'),
    fc.oneof(fc.double(), fc.string()),
  ),
  deep('[', '', ']'),
  deep('{"a":', '1', '}'),
);

const day = fc.date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2027-12-31T23:59:59Z'), noInvalidDate: true });
const calendarDay = day.map((date) => date.toISOString().slice(0, 10));
const dateTime = day.map((date) => date.toISOString().slice(0, 19).replace('T', ' '));
const point = fc.record({ lat: fc.double({ min: -30, max: -20, noNaN: true }), lng: fc.double({ min: 20, max: 30, noNaN: true }) });
const decimal = fc.tuple(fc.nat(99_999), fc.nat(999)).map(([whole, fraction]) => `${whole}.${fraction}`);
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 });
const degrees = (range: number) => fc.integer({ min: -range * 1e6, max: range * 1e6 }).map((micro) => (micro / 1e6).toFixed(6));
/** The accepted range of integer parameters; plausible values stray one past either end. */
const RANGES: Record<string, readonly [number, number]> = {
  width: [1, 640],
  height: [1, 640],
  zoom: [1, 20],
  radius: [1, 20_000],
  speed: [0, 1000],
  default_trip_type: [0, 9],
};

const idsOf = (user: KnownUser, name: string): number[] => (Object.hasOwn(user.ids, name) ? (user.ids[name] ?? []) : []);

/** A value that passes (or nearly passes) the parameter's own check, by its name; ids are mostly the key's own. */
export function plausible(name: string, own: KnownUser, everyone: readonly KnownUser[]): fc.Arbitrary<FuzzValue> {
  const ids = idsOf(own, name);
  if (ids.length) {
    return fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...ids) },
      { weight: 2, arbitrary: fc.constantFrom(...ids).map(String) },
      { weight: 2, arbitrary: fc.constantFrom(...everyone.flatMap((user) => idsOf(user, name))) },
      { weight: 1, arbitrary: fc.nat(1_000_000).map(String) },
    );
  }
  const range = Object.hasOwn(RANGES, name) ? RANGES[name] : undefined;
  if (range) return fc.integer({ min: range[0] - 1, max: range[1] + 1 }).map(String);
  if (name === 'filter') {
    const imeis = everyone.flatMap((user) => user.imeis);
    // A few of the users' IMEIs, or hundreds with repeats, blanks and IMEIs nobody has.
    const many = fc.array(fc.constantFrom(...imeis, '', ' ', '350000000000000'), { maxLength: 400 });
    return fc.oneof(fc.subarray(imeis, { minLength: 1 }), many).map((list) => list.join(','));
  }
  if (name.endsWith('_date') || name.endsWith('_expiry_datetime')) return calendarDay;
  if (name.endsWith('_datetime')) return fc.oneof(calendarDay, dateTime);
  if (name === 'latitude') return degrees(90);
  if (name === 'longitude') return degrees(180);
  if (['active_flag', 'no_go', 'only_push'].includes(name)) return fc.constantFrom('0', '1', 0, 1);
  if (name === 'amount' || name === 'qty') return decimal;
  if (name === 'location_type') return fc.constantFrom('point', 'polygon', 'POLYGON', 'circle');
  if (name === 'points') return asArrayOrText(fc.array(point, { minLength: 2, maxLength: 8 }));
  if (name === 'stops') return asArrayOrText(stops(own));
  if (name === 'payload') return jobCard;
  if (name === 'tag_id') return fc.string({ unit: fc.constantFrom(...'0123456789ABCDEF'), minLength: 1, maxLength: 20 });
  if (name === 'email_address') return fc.emailAddress();
  return text;
}

const stops = (own: KnownUser) =>
  fc.array(fc.oneof(point, fc.record({ user_location_uid: fc.constantFrom(...idsOf(own, 'user_location_uid'), 1) })), {
    minLength: 1,
    maxLength: 6,
  });

/** A list as a JSON body carries it, or as its JSON text (what a form must send). */
const asArrayOrText = (list: fc.Arbitrary<FuzzValue[]>): fc.Arbitrary<FuzzValue> =>
  fc.oneof(
    list,
    list.map((items) => JSON.stringify(items)),
  );

const JOB_CARD_KEYS = [
  'SiteReferenceNumber',
  'ReferenceNumber',
  'DueDate',
  'Latitude',
  'Longitude',
  'SiteAddress',
  'Instructions',
  'IsDelivery',
  'PlannedSequence',
];
/** Job card text written by hand, so its values may be raw literals and its keys may repeat. */
const jobCard = fc
  .array(fc.tuple(fc.constantFrom(...JOB_CARD_KEYS), fc.oneof(nasty(1000), jsonShapes)), { maxLength: 6 })
  .map((fields) => `{${fields.map(([name, value]) => `${JSON.stringify(name)}:${asJson(value)}`).join(',')}}`);

/** A value as JSON text: raw literals as written. */
export const asJson = (value: FuzzValue): string => (value instanceof RawJson ? value.text : JSON.stringify(value));

/** Anything but a plausible value: hostile text, or (in JSON bodies) a hostile shape. */
export const hostile = (maxLength: number): fc.Arbitrary<FuzzValue> =>
  fc.oneof({ weight: 4, arbitrary: nasty(maxLength) }, { weight: 1, arbitrary: jsonShapes });

/** Names no operation declares, or declares only to trip the parser. */
export const strayName = fc.oneof(
  fc.constantFrom('api_key', '__proto__', 'constructor', 'prototype', 'hasOwnProperty', '', 'a[b]', 'filter[]', 'API_KEY', ' api_key'),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);
