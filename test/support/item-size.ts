/** DynamoDB's item size: attribute names plus values (strings by UTF-8 length, numbers about 8 bytes, maps and lists nested). */
export function itemBytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return 8;
  if (typeof value === 'boolean' || value === null || value === undefined) return 1;
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, item) => sum + 1 + itemBytes(item), 0);
  return (
    3 +
    Object.entries(value as Record<string, unknown>).reduce((sum, [name, item]) => sum + Buffer.byteLength(name) + 1 + itemBytes(item), 0)
  );
}
