/** The request body as the parser found it: what operations that take a document (job cards) read it from. */
export type ParsedBody =
  | { kind: 'none' }
  | { kind: 'form'; text: string }
  | { kind: 'json'; text: string; value: unknown }
  | { kind: 'invalid-json'; text: string };
