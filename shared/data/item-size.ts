/**
 * The size DynamoDB bills for an item, in bytes, by its published rules
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):
 * every attribute costs its name's UTF-8 length plus its value's size —
 * strings their UTF-8 length, numbers 1 byte per two significant digits
 * plus 1, booleans and null 1 byte, lists and maps 3 bytes plus 1 byte per
 * element plus the elements (a map element's name included), binary its
 * length. A write costs one write unit per started 1,024 bytes.
 *
 * Used to keep the items written per recipient (event copies) under one
 * write unit; `undefined` attributes count as absent, as the document
 * client drops them (`removeUndefinedValues`).
 * @param item a plain item as the document client would marshal it
 * @returns the item's size in bytes
 */
export function dynamoItemBytes(item: Record<string, unknown>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) {
    if (value === undefined) continue;
    size += utf8Bytes(name) + valueBytes(value);
  }
  return size;
}

/** Write units one write of an item of `bytes` costs (1 per started KB, at least 1). */
export function writeUnitsFor(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / 1024));
}

function utf8Bytes(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

function numberBytes(n: number | bigint): number {
  const digits = String(n)
    .replace(/^-/, "")
    .replace(/e.*$/i, "")
    .replace(".", "")
    .replace(/^0+/, "")
    .replace(/0+$/, "");
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

function valueBytes(value: unknown): number {
  if (value === null || typeof value === "boolean") return 1;
  if (typeof value === "string") return utf8Bytes(value);
  if (typeof value === "number" || typeof value === "bigint") return numberBytes(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) {
    let size = 0;
    for (const v of value) size += valueBytes(v);
    return size;
  }
  if (Array.isArray(value)) {
    let size = 3;
    for (const v of value) size += 1 + valueBytes(v === undefined ? null : v);
    return size;
  }
  if (typeof value === "object") {
    let size = 3;
    for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      size += 1 + utf8Bytes(name) + valueBytes(v);
    }
    return size;
  }
  throw new Error(`dynamoItemBytes: unsupported value of type ${typeof value}`);
}
