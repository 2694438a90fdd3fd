/** Values an integer id parameter refuses with its `... is required and must be an integer` message. */
export const notIntegers: Array<[string, string | undefined]> = [
  ['missing', undefined],
  ['empty', ''],
  ['text', 'abc'],
  ['a decimal', '1.5'],
  ['in exponent form', '1e30'],
  ['huge', '99999999999999999999'],
  ['beyond the safe integers', '9999999999999999'],
  ['unicode digits', '١٢'],
  ['a lone minus sign', '-'],
];
