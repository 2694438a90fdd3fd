import { randomUUID } from 'node:crypto';

/** The response toResponseJson is writing: the texts of the VerbatimJson met so far. */
let writing: { texts: string[] } | undefined;

/**
 * The marker a VerbatimJson is written as, and its pattern: drawn once per container, on first use, and never seen
 * outside (every one is replaced before a response leaves), so no other string of a response can hold it. One
 * pattern for every response: a pattern drawn per call was compiled per call, which cost more than the writing itself
 * for a page of job cards (each record is written on its own).
 */
let marking: { marker: string; marked: RegExp } | undefined;
const markingOf = () => {
  if (!marking) {
    const marker = `verbatim-json-${randomUUID()}-`;
    marking = { marker, marked: new RegExp(`"${marker}(\\d+)"`, 'g') };
  }
  return marking;
};

/**
 * JSON text that a response carries exactly as stored, instead of parsing it and serialising it again: a job
 * card's payload keeps `12345678901234567890`, `1.50`, its key order and its escapes. Only the envelope splices
 * it (see toResponseJson); made only by verbatimJsonObject, which checks the text, so a stored text that is not
 * a JSON object can never break the response around it, and by writtenRecords, of text
 * JSON.stringify wrote.
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
   * answer threefold): within toResponseJson, a string holding the marker, which no other string of the response can
   * hold, and the text's index; anywhere else, the object the text holds.
   */
  toJSON(): unknown {
    if (!writing) return JSON.parse(this.#text);
    writing.texts.push(this.#text);
    return `${markingOf().marker}${writing.texts.length - 1}`;
  }

  /**
   * Records the service wrote itself (so JSON by construction, needing no check) as one JSON array: a page's, each
   * written by toResponseJson when it counted its bytes; a feed's events, as JSON.stringify wrote them when stored.
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

/** Records the service wrote, spliced into the response as one array; typed as the records they are on the wire. */
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
  const current: { texts: string[] } = { texts: [] };
  writing = current;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    writing = outer;
  }
  const { texts } = current;
  if (texts.length === 0) return text;
  return text.replace(markingOf().marked, (_quoted, index: string) => texts[Number(index)] as string);
}
