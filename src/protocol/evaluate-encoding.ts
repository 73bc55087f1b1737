/**
 * How `evaluate` results travel, the same for both engines: the in-page
 * encoder (`runInPage`, sent as source), the check of what comes back
 * ({@link decodeEvaluateResult}), and {@link callInPage} for sending a
 * self-contained function with its argument. Web standards only.
 */
import { OutcomeUnknownError } from "../errors.js";
import { limits } from "./limits.js";

/** What the page hands back: the result as JSON text, or why it is not plain JSON. */
type Encoded = { json: string } | { problem: string };

/**
 * Runs in the page: evaluates `expression` as Playwright does for a string
 * (global scope, a promise awaited), then writes the value as JSON text, or
 * names the first part that is not plain JSON (a Date, NaN, a cycle, a
 * `__proto__` key, nesting deeper than `maxDepth`). Self-contained: Playwright
 * sends its source to the page, and the value is encoded in the same task, so
 * a navigation the expression starts cannot lose it. The page can tamper with
 * the built-ins used here, so Node checks the text again
 * ({@link decodeEvaluateResult}); this walk only gives the clear message.
 */
function runInPage({ expression, maxDepth, maxBytes }: { expression: string; maxDepth: number; maxBytes: number }): Encoded | Promise<Encoded> {
  const ancestors: object[] = [];
  let size = 0;
  const fail = (problem: string): never => {
    throw { encodeProblem: problem };
  };
  // Each character is at least one UTF-8 byte: past `maxBytes` characters the result is over the limit.
  const counted = (text: string): string => {
    size += text.length;
    if (size > maxBytes) throw { tooLarge: true };
    return text;
  };
  const walk = (entry: unknown, path: string, depth: number): string => {
    if (entry === null) return "null";
    if (typeof entry === "string" || typeof entry === "boolean") return counted(JSON.stringify(entry));
    if (typeof entry === "number") return Number.isFinite(entry) ? counted(JSON.stringify(entry)) : fail(`${String(entry)} at ${path}`);
    if (typeof entry !== "object") return fail(`${typeof entry} at ${path}`);
    if (depth >= maxDepth) return fail(`nesting deeper than ${maxDepth} levels at ${path}`);
    if (ancestors.includes(entry)) return fail(`a cycle at ${path}`);
    ancestors.push(entry);
    let text: string;
    if (Array.isArray(entry)) {
      const parts: string[] = [];
      for (let index = 0; index < entry.length; index++) parts.push(walk(entry[index], `${path}[${index}]`, depth + 1));
      text = `[${parts.join(",")}]`;
    } else {
      // A plain object of any realm (an iframe's too): its prototype is null or an Object.prototype.
      const prototype: unknown = Object.getPrototypeOf(entry);
      if (prototype !== null && Object.getPrototypeOf(prototype) !== null) fail(`${(entry as { constructor?: { name?: string } }).constructor?.name ?? "object"} at ${path}`);
      const parts: string[] = [];
      for (const key of Object.keys(entry)) {
        if (key === "__proto__") fail(`a "__proto__" key at ${path}`);
        const item = (entry as Record<string, unknown>)[key];
        if (item !== undefined) parts.push(`${counted(JSON.stringify(key))}:${walk(item, `${path}.${key}`, depth + 1)}`);
      }
      text = `{${parts.join(",")}}`;
    }
    ancestors.pop();
    return text;
  };
  const encode = (value: unknown): Encoded => {
    try {
      return { json: walk(value === undefined ? null : value, "$", 0) };
    } catch (error) {
      if ((error as { tooLarge?: unknown } | null)?.tooLarge === true) return { problem: `it is more than ${maxBytes} bytes of JSON, the limit` };
      const problem = (error as { encodeProblem?: unknown } | null)?.encodeProblem;
      return { problem: typeof problem === "string" ? `it is not JSON-compatible (${problem})` : `it could not be read (${String(error)})` };
    }
  };
  const value: unknown = (0, globalThis.eval)(expression);
  const thenable = typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
  return thenable ? Promise.resolve(value).then(encode) : encode(value);
}

/** The deepest nesting of arrays and objects in JSON text, counted without parsing it. */
function jsonDepth(json: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < json.length; index++) {
    const char = json[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "[" || char === "{") deepest = Math.max(deepest, ++depth);
    else if (char === "]" || char === "}") depth--;
  }
  return deepest;
}

/**
 * The expression has run by now: whatever it did stands, so the outcome is
 * not "failed" (the outcome rule) even though its result cannot be returned.
 */
function cannotReturn(problem: string): OutcomeUnknownError {
  return new OutcomeUnknownError(
    `evaluate: the expression ran, but its result cannot be returned: ${problem.slice(0, 512)}; return plain JSON data. Whatever it changed on the page has taken effect; observe before running it again.`,
  );
}

/**
 * Checks in Node what the page sent, so that a page that tampered with its
 * built-ins cannot slip past: the text must be JSON within the byte and depth
 * limits and hold no `__proto__` key.
 */
export function decodeEvaluateResult(encoded: unknown): unknown {
  if (typeof encoded === "object" && encoded !== null && typeof (encoded as { problem?: unknown }).problem === "string") {
    throw cannotReturn((encoded as { problem: string }).problem);
  }
  const json = typeof encoded === "object" && encoded !== null ? (encoded as { json?: unknown }).json : undefined;
  if (typeof json !== "string") throw cannotReturn("the page did not hand it back as JSON text");
  const bytes = new TextEncoder().encode(json).length;
  if (bytes > limits.evaluateResultBytes) {
    throw cannotReturn(`it is ${bytes} bytes of JSON, above the ${limits.evaluateResultBytes}-byte limit`);
  }
  if (jsonDepth(json) > limits.evaluateResultDepth) throw cannotReturn(`it is not JSON-compatible (nesting deeper than ${limits.evaluateResultDepth} levels)`);
  try {
    return JSON.parse(json, (key, value: unknown) => {
      if (key === "__proto__") throw new Error('a "__proto__" key');
      return value;
    });
  } catch (error) {
    throw cannotReturn(`it is not JSON-compatible (${error instanceof Error ? error.message : String(error)})`);
  }
}

/**
 * The call of `run(argument)` as an expression string. A transpiler that keeps
 * function names (tsx, esbuild `keepNames`) puts `__name(…)` calls into the
 * function's source, which would fail in the page: the call binds `__name`
 * to a pass-through around it.
 */
export function callInPage<A>(run: (argument: A) => unknown, argument: A): string {
  return `((__name) => (${run.toString()}))((target) => target)(${JSON.stringify(argument)})`;
}

/**
 * The expression that evaluates `expression` in a page and encodes its result
 * as JSON text (see `runInPage`); {@link decodeEvaluateResult} checks what
 * comes back. Runtime-neutral: the CDP engine sends it too.
 */
export function evaluateAsJsonExpression(expression: string): string {
  return callInPage(runInPage, { expression, maxDepth: limits.evaluateResultDepth, maxBytes: limits.evaluateResultBytes });
}

