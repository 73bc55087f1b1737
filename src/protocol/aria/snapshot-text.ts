/**
 * Text helpers shared by the snapshot renderers: whitespace collapsing,
 * clipping, quoting, UTF-8 measuring and byte-bounded line assembly.
 *
 * Pure: no Node builtins, no playwright-core at runtime.
 */

/**
 * One output line: `head + mapRef(ref) + tail`, or `head + tail` without a
 * ref; then each of `more` the same way (a line listing several elements).
 */
export interface SnapshotLine {
  head: string;
  ref?: string;
  tail: string;
  more?: readonly { head: string; ref: string; tail: string }[];
}

/** The segments of a line, in output order. */
const segmentsOf = (line: SnapshotLine) => [{ head: line.head, ref: line.ref, tail: line.tail }, ...(line.more ?? [])];

/** What the byte-bounded assembly produced. */
export interface AssembledSnapshot {
  snapshot: string;
  truncated: boolean;
  bytes: number;
  refs: number;
}

/**
 * The longest mapped ref the cut decision assumes. A ref is mapped only once
 * its line is known to fit with a mapped ref this long, so `mapRef` is never
 * called for a ref that is not printed (unless it returns something longer).
 */
const ASSUMED_REF_LENGTH = 24;

const encoder = new TextEncoder();

/** UTF-8 length of a string in bytes. */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/**
 * Collapses whitespace runs to one space, trims, and drops control, zero-width
 * and bidirectional-override characters (they could disguise page text).
 */
export function collapseText(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u200b-\u200f\u00ad\u202a-\u202e\u2066-\u2069\ufeff]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Cuts text to at most `maxLength` UTF-16 units (never inside a surrogate pair), marking the cut with `…`. */
export function clipText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  let end = Math.max(0, maxLength - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** Quotes text as a JSON string, so page text can never close the quote or forge a marker. */
export function quoteText(text: string): string {
  return JSON.stringify(text);
}

/**
 * Joins lines into one string of at most `maxBytes` UTF-8 bytes. Lines are
 * kept whole; when one does not fit, the output ends with `truncationMarker`
 * (given the number of lines left out), which also fits within `maxBytes`.
 * `mapRef` is called, in output order, only for refs of lines that are printed.
 */
export function assembleLines(
  lines: readonly SnapshotLine[],
  maxBytes: number,
  mapRef: (ref: string) => string,
  truncationMarker: (omittedLines: number) => string,
): AssembledSnapshot {
  const limit = Math.max(0, Math.floor(maxBytes));
  const output: string[] = [];
  let bytes = 0;
  let refs = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as SnapshotLine;
    const separator = output.length ? 1 : 0;
    const linesAfter = lines.length - index - 1;
    // Room for the marker in case a later line does not fit (fewer omitted lines never make it longer).
    const reserve = linesAfter ? utf8Length(truncationMarker(linesAfter)) + 1 : 0;
    const segments = segmentsOf(line);
    const lineRefs = segments.filter((segment) => segment.ref !== undefined).length;
    const fixedBytes = separator + segments.reduce((sum, segment) => sum + utf8Length(segment.head) + utf8Length(segment.tail), 0);
    const estimate = fixedBytes + lineRefs * ASSUMED_REF_LENGTH;
    if (bytes + estimate + reserve > limit) {
      return finishTruncated(output, bytes, refs, limit, truncationMarker(lines.length - index));
    }
    let lineBytes = fixedBytes;
    let text = "";
    for (const segment of segments) {
      const mapped = segment.ref === undefined ? "" : mapRef(segment.ref);
      text += segment.head + mapped + segment.tail;
      lineBytes += utf8Length(mapped);
    }
    if (lineRefs && bytes + lineBytes + reserve > limit) {
      return finishTruncated(output, bytes, refs, limit, truncationMarker(lines.length - index));
    }
    refs += lineRefs;
    output.push(text);
    bytes += lineBytes;
  }
  return { snapshot: output.join("\n"), truncated: false, bytes, refs };
}

function finishTruncated(
  output: string[],
  bytes: number,
  refs: number,
  limit: number,
  marker: string,
): AssembledSnapshot {
  const separator = output.length ? 1 : 0;
  let markerText = marker;
  while (markerText && bytes + separator + utf8Length(markerText) > limit) {
    markerText = markerText.slice(0, -1);
    const last = markerText.charCodeAt(markerText.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) markerText = markerText.slice(0, -1);
  }
  if (markerText) {
    output.push(markerText);
    bytes += separator + utf8Length(markerText);
  }
  return { snapshot: output.join("\n"), truncated: true, bytes, refs };
}
