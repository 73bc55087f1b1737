import * as v from "valibot";
import { callerLimits } from "./limits.js";

/** An integer in [min, max], with a message that states the range. */
export const integerIn = (min: number, max: number) =>
  v.pipe(
    v.number("expected a number"),
    v.integer("expected an integer"),
    v.minValue(min, `expected a number ≥ ${min}`),
    v.maxValue(max, `expected a number ≤ ${max}`),
  );

/** One of `options`, with the message `expected "a", "b" or "c"`. */
export const choice = <const Options extends readonly [string, ...string[]]>(options: Options) =>
  v.picklist(options, `expected ${options.map((option) => `"${option}"`).join(", ").replace(/, ([^,]*)$/, " or $1")}`);

/** A number in [min, max] (finite, since the bounds are: NaN is no number). */
export const numberIn = (min: number, max: number) =>
  v.pipe(v.number("expected a number"), v.minValue(min, `expected a number ≥ ${min}`), v.maxValue(max, `expected a number ≤ ${max}`));

/** A string of at most `max` characters. */
export const boundedString = (max: number, what = "string") =>
  v.pipe(v.string(`expected ${what} as a string`), v.maxLength(max, `longer than ${max} characters`));

/** A non-empty string of at most `max` characters. */
export const nonEmptyString = (max: number, what = "string") =>
  v.pipe(
    v.string(`expected ${what} as a string`),
    v.minLength(1, `expected a non-empty ${what}`),
    v.maxLength(max, `longer than ${max} characters`),
  );

/** A point in main-viewport CSS pixels. */
export const PointSchema = v.strictObject({
  x: numberIn(0, callerLimits.coordinateMax),
  y: numberIn(0, callerLimits.coordinateMax),
});

export const timeoutMs = (max: number) => v.optional(integerIn(0, max));

export const mouseButton = v.optional(choice(["left", "right", "middle"]));

export const clickCount = v.optional(integerIn(1, 3));

export const modifiers = v.optional(
  v.pipe(
    v.array(
      v.picklist(["Alt", "Control", "ControlOrMeta", "Meta", "Shift"], "expected Alt, Control, ControlOrMeta, Meta or Shift"),
      "expected an array of modifier keys",
    ),
    v.maxLength(5, "at most 5 modifiers"),
  ),
);

/** A page id as reported by `pages` and `newPage` (`p1`, `p2`, …). */
export const pageId = v.pipe(v.string("expected a page id as a string"), v.regex(/^p\d{1,6}$/, "expected a page id like p1"));

/** A download id as reported by `downloads` (`d1`, `d2`, …). */
export const downloadId = v.pipe(v.string("expected a download id as a string"), v.regex(/^d\d{1,6}$/, "expected a download id like d1"));

/** Host profile ids, e.g. `research` or `whatsapp:acme:+4712345678` (per tenant and account); never a path. */
export const profileIdPattern = /^[A-Za-z0-9_-][A-Za-z0-9._:+@-]{0,127}$/;
export const profileIdRule =
  "expected a profile id: 1–128 letters, digits, '.', '_', '-', ':', '+' or '@', starting with a letter, digit, '_' or '-'";

/** A host profile id. */
export const profileId = v.pipe(v.string("expected a profile id as a string"), v.regex(profileIdPattern, profileIdRule));

/** Why a base URL is unusable, or undefined when it is fine. Never echoes the URL (it could hold a secret). */
export function baseUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "expected an absolute http(s) URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "expected an http: or https: URL";
  if (url.username !== "" || url.password !== "") return "credentials in the URL are refused; pass the key as apiKey";
  if (url.search !== "" || url.hash !== "" || value.includes("?") || value.includes("#")) return "expected no query or fragment";
  return undefined;
}
