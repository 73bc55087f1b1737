/** Pulls the ref of the first line of an agent-form snapshot that matches `pattern`. */
export function refOf(snapshot: string, pattern: RegExp): string {
  const line = snapshot.split("\n").find((candidate) => pattern.test(candidate));
  const ref = line && /\[((?:f\d+)?e\d+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ref for ${pattern} in:\n${snapshot}`);
  return ref;
}

/** A snapshot with every ref number replaced, so that two engines' snapshots of one page compare as text. */
export function withRefNumbersHidden(snapshot: string): string {
  return snapshot.replace(/\b(f\d+)?e\d+\b/g, (_match, frame: string | undefined) => `${frame ? "f#" : ""}e#`);
}
