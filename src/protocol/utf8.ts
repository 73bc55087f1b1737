const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): { text: string; truncated: boolean; bytes: number } {
  const encoded = encoder.encode(text);
  if (encoded.length <= maxBytes) return { text, truncated: false, bytes: encoded.length };
  let end = maxBytes;
  while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end--;
  return { text: decoder.decode(encoded.subarray(0, end)), truncated: true, bytes: encoded.length };
}
