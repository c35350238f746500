/**
 * The parts' bytes one after another: in `into` when given (room for them all; the view of its start they fill is
 * returned), else in a new array of exactly their size.
 */
export function joinBytes(parts: readonly Uint8Array[], into?: Uint8Array): Uint8Array {
  let size = 0;
  for (const part of parts) size += part.byteLength;
  const out = into ?? new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out.subarray(0, size);
}
