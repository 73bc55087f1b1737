/**
 * Redaction of secret values from text: each value is matched in every form a
 * browser or a result may show it in (see {@link secretForms}), and so is any
 * cut-off start of one of those forms of at least {@link minimumPrefix}
 * characters, since snapshots, summaries and quoted errors shorten long
 * values. Used by the agent tools (host secrets, typed passwords) and the
 * client (its API key). Web standards only.
 */

/** The shortest start of a form that counts as showing it. */
export const minimumPrefix = 8;

const htmlEntities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\u00a0": "&nbsp;" };

/** `value` as standard base64 of its UTF-8 bytes, after `pad` zero bytes. */
function base64(value: string, pad = 0): string {
  const bytes = new TextEncoder().encode(value);
  let binary = "\0".repeat(pad);
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The base64 characters that depend only on `value`'s bytes when they sit
 * `offset` bytes (0–2) into a longer base64-encoded run (a Basic auth header,
 * a data: URL): without the characters shared with the bytes around it.
 */
function base64Core(value: string, offset: number): string {
  const length = new TextEncoder().encode(value).length;
  const encoded = base64(value, offset).replace(/=+$/, "");
  const start = [0, 2, 3][offset]!;
  const tail = (offset + length) % 3;
  return encoded.slice(start, tail === 0 ? encoded.length : encoded.length - 1);
}

/** Runs `produce`; a form a runtime refuses to build (a lone surrogate for encodeURIComponent) is left out. */
function attempt(produce: () => string): string {
  try {
    return produce();
  } catch {
    return "";
  }
}

/**
 * Every form `value` may appear in: raw; JSON-escaped (as JavaScript writes
 * it, and with non-ASCII as `\uXXXX`); HTML-escaped (as `content` serializes
 * attributes); `encodeURIComponent`; the WHATWG URL path (as
 * `new URL("http://x/" + value).pathname` and the `pathname` setter write
 * it); `application/x-www-form-urlencoded` (URLSearchParams, `+` for spaces);
 * base64 and base64url of its UTF-8 bytes, alone or inside a longer run.
 * A form that loses part of the value (a path cut at `?`) or a base64 run
 * shorter than {@link minimumPrefix} is left out: it would blank ordinary text.
 */
export function secretForms(value: string): string[] {
  if (value === "") return [];
  const whole = [
    value,
    JSON.stringify(value).slice(1, -1),
    JSON.stringify(value)
      .slice(1, -1)
      .replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`),
    value.replace(/[&<>"\u00a0]/g, (char) => htmlEntities[char]!),
    attempt(() => encodeURIComponent(value)),
    attempt(() => new URL(`http://x/${value}`).pathname.slice(1)),
    attempt(() => {
      const url = new URL("http://x/");
      url.pathname = `/${value}`;
      return url.pathname.slice(1);
    }),
    new URLSearchParams({ v: value }).toString().slice(2),
    base64(value),
    base64(value).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"),
  ].filter((form) => form.length >= value.length);
  const cores = [0, 1, 2].map((offset) => base64Core(value, offset)).filter((core) => core.length >= minimumPrefix);
  const urlSafe = cores.map((core) => core.replace(/\+/g, "-").replace(/\//g, "_"));
  return [...new Set([...whole, ...cores, ...urlSafe])];
}

/**
 * Replaces secret values in text, in all their {@link secretForms}. A start of
 * a form of at least {@link minimumPrefix} characters is replaced too, whatever
 * follows it.
 *
 * @example
 * const redactor = new Redactor();
 * redactor.add("hunter2-long", "[secret:password]");
 * redactor.apply(`Authorization: Basic ${btoa("me:hunter2-long")}`); // "Authorization: Basic bWU6[secret:password]"
 */
export class Redactor {
  /** Value form → replacement, longest first when applied. */
  readonly #forms = new Map<string, string>();
  #ordered: [string, string][] | undefined;

  /** Redacts `value` from now on, replaced by `label`. A form already redacted keeps its first label. */
  add(value: string, label: string): void {
    for (const form of secretForms(value)) {
      if (this.#forms.has(form)) continue;
      this.#forms.set(form, label);
      this.#ordered = undefined;
    }
  }

  /** True when `value` is already redacted. */
  has(value: string): boolean {
    return this.#forms.has(value);
  }

  /** `text` with every known form, and every start of one of at least {@link minimumPrefix} characters, replaced. */
  apply(text: string): string {
    if (this.#forms.size === 0) return text;
    this.#ordered ??= [...this.#forms].sort(([a], [b]) => b.length - a.length);
    let result = text;
    for (const [form, label] of this.#ordered) if (result.includes(form)) result = result.split(form).join(label);
    return redactStarts(result, this.#ordered);
  }
}

/**
 * Replaces each start of a form of at least {@link minimumPrefix} characters,
 * as far as it matches; where several forms start at one place, the longest
 * match wins (so `p@ss…` is not cut short by its encoded form `p%40ss…`).
 */
function redactStarts(text: string, forms: readonly [string, string][]): string {
  const found: { at: number; end: number; label: string }[] = [];
  for (const [form, label] of forms) {
    if (form.length <= minimumPrefix) continue;
    const head = form.slice(0, minimumPrefix);
    for (let at = text.indexOf(head); at !== -1; at = text.indexOf(head, at + 1)) {
      let length = minimumPrefix;
      while (length < form.length && text[at + length] === form[length]) length++;
      found.push({ at, end: at + length, label });
    }
  }
  if (found.length === 0) return text;
  found.sort((a, b) => a.at - b.at || b.end - a.end);
  let out = "";
  let from = 0;
  for (const match of found) {
    if (match.at < from) {
      // Overlaps the previous match: extend it instead.
      if (match.end > from) from = match.end;
      continue;
    }
    out += text.slice(from, match.at) + match.label;
    from = match.end;
  }
  return out + text.slice(from);
}
