import { randomUUID } from 'node:crypto';

/** The response toResponseJson is writing: the texts of the VerbatimJson met so far, and the marker standing for them. */
let writing: { marker?: string; texts: string[] } | undefined;

/**
 * JSON text that a response carries exactly as stored, instead of parsing it and serialising it again: a job
 * card's payload keeps `12345678901234567890`, `1.50`, its key order and its escapes. Only the envelope splices
 * it (see toResponseJson); made only by verbatimJsonObject, which checks the text, so a stored text that is not
 * a JSON object can never break the response around it.
 */
export class VerbatimJson {
  readonly #text: string;

  private constructor(text: string) {
    this.#text = text;
  }

  get text(): string {
    return this.#text;
  }

  /**
   * JSON.stringify asks every object for toJSON, so the splice needs no replacer (one slows every field of a large
   * answer threefold): within toResponseJson, a string holding a marker drawn for that call, which no other string of
   * the response can hold, and the text's index; anywhere else, the object the text holds.
   */
  toJSON(): unknown {
    if (!writing) return JSON.parse(this.#text);
    writing.marker ??= `verbatim-json-${randomUUID()}-`;
    writing.texts.push(this.#text);
    return `${writing.marker}${writing.texts.length - 1}`;
  }

  /**
   * An answer's records, each already written by toResponseJson (so JSON by construction, needing no check), as one
   * JSON array: a page serializes each record once, when it counts its bytes, and the envelope splices them in.
   */
  static ofWritten(texts: readonly string[]): VerbatimJson {
    return new VerbatimJson(`[${texts.join(',')}]`);
  }

  /** Checked JSON object text; lone surrogates (possible only inside strings) become their escapes, as JSON.stringify writes them. */
  static ofObject(text: string): VerbatimJson {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error('stored JSON text is not valid JSON');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('stored JSON text is not a JSON object');
    return new VerbatimJson(text.replace(/[\uD800-\uDFFF]/gu, (unit) => `\\u${unit.charCodeAt(0).toString(16)}`));
  }
}

/** Records toResponseJson wrote, spliced into the response as one array; typed as the records they are on the wire. */
export function writtenRecords<R>(texts: readonly string[]): R[] {
  return VerbatimJson.ofWritten(texts) as unknown as R[];
}

/**
 * A stored JSON object's text, spliced into the response as it is. Typed as the object it becomes on the wire,
 * which is what the operations' output schemas describe.
 */
export function verbatimJsonObject(text: string): Record<string, unknown> {
  return VerbatimJson.ofObject(text) as unknown as Record<string, unknown>;
}

/** JSON.stringify, except that each VerbatimJson is written as its text: the quoted markers are replaced by the texts. */
export function toResponseJson(value: unknown): string {
  const outer = writing;
  const current: { marker?: string; texts: string[] } = { texts: [] };
  writing = current;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    writing = outer;
  }
  const { marker, texts } = current;
  if (marker === undefined) return text;
  return text.replace(new RegExp(`"${marker}(\\d+)"`, 'g'), (_quoted, index: string) => texts[Number(index)] as string);
}
