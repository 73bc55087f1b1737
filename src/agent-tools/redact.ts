/**
 * Redaction of secret values from every text result: host-provided secrets
 * (shown as `[secret:NAME]`) and values the model typed into password fields
 * (shown as `[redacted]`). Each value is also matched in its JSON-escaped and
 * URL-encoded forms, the two ways text results quote page strings.
 */
export class Redactor {
  /** Value form → replacement, longest first when applied. */
  private readonly forms = new Map<string, string>();
  private ordered: [string, string][] | undefined;

  /** Redacts `value` from now on, replaced by `label`. */
  add(value: string, label: string): void {
    for (const form of new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)])) {
      if (form.length === 0 || this.forms.has(form)) continue;
      this.forms.set(form, label);
      this.ordered = undefined;
    }
  }

  /** True when `value` is already redacted. */
  has(value: string): boolean {
    return this.forms.has(value);
  }

  /**
   * `text` with every known value replaced — and any cut-off start of one
   * (at least {@link minimumPrefix} characters, ending where the text was
   * shortened: before `…`, a line end or the end), since snapshots and
   * summaries shorten long values before they are shown.
   */
  apply(text: string): string {
    if (this.forms.size === 0) return text;
    this.ordered ??= [...this.forms].sort(([a], [b]) => b.length - a.length);
    let result = text;
    for (const [form, label] of this.ordered) {
      if (result.includes(form)) result = result.split(form).join(label);
      if (form.length > minimumPrefix) result = redactCutPrefixes(result, form, label);
    }
    return result;
  }
}

/** The shortest start of a value that counts as showing it. */
const minimumPrefix = 8;

/** Replaces each start of `form` (≥ {@link minimumPrefix} characters) that ends where text was cut. */
function redactCutPrefixes(text: string, form: string, label: string): string {
  const head = form.slice(0, minimumPrefix);
  let out = "";
  let from = 0;
  for (let at = text.indexOf(head); at !== -1; at = text.indexOf(head, at + 1)) {
    if (at < from) continue;
    let length = minimumPrefix;
    while (length < form.length && text[at + length] === form[length]) length++;
    const next = text[at + length];
    if (next === undefined || next === "…" || next === "\n") {
      out += text.slice(from, at) + label;
      from = at + length;
    }
  }
  return out + text.slice(from);
}
