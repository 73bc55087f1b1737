/** What was thrown, as text; never throws itself (a value whose `toString` throws, a null-prototype object). */
export function describeThrown(error: unknown): string {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    return "an unprintable value was thrown";
  }
}
