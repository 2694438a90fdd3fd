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

/**
 * A stored JSON object's text, spliced into the response as it is. Typed as the object it becomes on the wire,
 * which is what the operations' output schemas describe.
 */
export function verbatimJsonObject(text: string): Record<string, unknown> {
  return VerbatimJson.ofObject(text) as unknown as Record<string, unknown>;
}
