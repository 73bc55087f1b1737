/**
 * Options of the Steel provider: what the caller may set, the defaults in one
 * table, and validation at the boundary. Neutral code.
 */
import type Steel from "steel-sdk";
import * as v from "valibot";
import { ValidationError } from "../../errors.js";
import { baseUrlProblem, integerIn } from "../../protocol/fields.js";
import { limits } from "../../protocol/limits.js";
import { parseWith } from "../../protocol/parse.js";
import { createMemoryProfileStore, type ProfileStore } from "../hosted/profile-store.js";
import type { Sleep } from "../hosted/rate-limit.js";
import type { Viewport } from "../types.js";

/** Steel regions named in its API (`lax`, `ord`, `iad`, …); other values are passed through as given. */
export type SteelRegion = "lax" | "ord" | "iad" | "scl" | "fra" | "nrt" | (string & {});

/** Options of {@link createSteelRestProvider}. */
export interface SteelRestProviderOptions {
  /**
   * The Steel API key, sent as the `steel-api-key` header and appended to the
   * CDP URL. Required for Steel cloud; optional with `selfHosted: true`
   * (steel-browser checks no key). Never appears in results, errors or logs.
   */
  apiKey?: string;
  /** API base URL. Default `https://api.steel.dev`; a steel-browser server is e.g. `http://127.0.0.1:3000` (set `selfHosted`). */
  baseURL?: string;
  /** The fetch to use. Default: the global one, looked up at each call (so test interceptors installed later apply). */
  fetch?: typeof globalThis.fetch;
  /**
   * The server is a self-hosted steel-browser: one session at a time (a create
   * would replace the live one, so a second create, also one made while
   * another create or a release is in flight, is refused here), release
   * ignores the id (so it is only sent while the session reads live, and only
   * once its browser has finished launching), no profiles. `useProxy`,
   * `solveCaptcha`, `region` and `stealthConfig`, which steel-browser
   * ignores, are refused. Default false.
   */
  selfHosted?: boolean;
  /** Use Steel's proxies: `true`, or a geolocation/server object as the Steel API takes it. */
  useProxy?: Steel.SessionCreateParams["useProxy"];
  /** Let Steel solve CAPTCHAs (cloud). Nothing here promises CAPTCHA-free access. */
  solveCaptcha?: boolean;
  /** Block ads in the browser. */
  blockAds?: boolean;
  /** Steel's stealth settings, passed through. */
  stealthConfig?: Steel.SessionCreateParams.StealthConfig;
  /** Region to start sessions in (`lax`, `ord`, `iad`, …). */
  region?: SteelRegion;
  /** User agent of the browser. */
  userAgent?: string;
  /** Steel's bandwidth optimizations, passed through. */
  optimizeBandwidth?: Steel.SessionCreateParams["optimizeBandwidth"];
  /** Desktop or mobile device fingerprint. */
  deviceConfig?: Steel.SessionCreateParams.DeviceConfig;
  /** Longest life of a Steel session, in ms (Steel's `timeout`). Default 900 000 (15 min). Self-hosted Steel ignores it. */
  sessionTimeoutMs?: number;
  /** Viewport when an open names none. Default 1280×800 (as the local provider). */
  viewport?: Viewport;
  /**
   * The folder, on the session's machine, that Steel's session files API
   * serves (its `/v1/sessions/{id}/files/{path}` paths are relative to it):
   * the CDP engine saves downloads there. Default `/files`, steel-browser's;
   * a steel-browser run with `NODE_ENV=development` uses `<tmpdir>/files`.
   */
  filesFolder?: string;
  /** Where host profile ids map to Steel profile ids. Default: in memory (lost on restart). */
  profileStore?: ProfileStore;
  /** Total time spent waiting on 429 `retry-after` before a `CapacityError` (ms). Default 10 000. */
  rateLimitCapMs?: number;
  /** How long `awaitPersisted` waits for a profile to become `READY` (ms). Default 60 000. */
  profileReadyTimeoutMs?: number;
  /** First wait between profile polls (ms), doubled up to 5 s. Default 500. */
  profilePollMs?: number;
  /** Time limit of each Steel API request (ms). Default 60 000. */
  requestTimeoutMs?: number;
  /**
   * Self-hosted only: how long a release waits for a session whose browser is
   * still launching (its `live-details` answer 5xx) before giving up without
   * sending it (ms). Default 30 000.
   */
  launchTimeoutMs?: number;
  /** Timer used for 429 waits and the launch wait (tests pass a fake). */
  sleep?: Sleep;
}

/** Options after validation, with every default filled in. */
export interface ResolvedSteelOptions {
  apiKey: string | undefined;
  baseURL: string;
  fetch: typeof globalThis.fetch;
  selfHosted: boolean;
  /** Passed through into each create body. */
  sessionSettings: Pick<
    Steel.SessionCreateParams,
    "useProxy" | "solveCaptcha" | "blockAds" | "stealthConfig" | "region" | "userAgent" | "optimizeBandwidth" | "deviceConfig"
  >;
  sessionTimeoutMs: number;
  viewport: Viewport;
  filesFolder: string;
  profileStore: ProfileStore;
  rateLimitCapMs: number;
  profileReadyTimeoutMs: number;
  profilePollMs: number;
  profilePollMaxMs: number;
  requestTimeoutMs: number;
  launchTimeoutMs: number;
  /** First wait between `live-details` polls (ms), doubled up to `launchPollMaxMs`. */
  launchPollMs: number;
  launchPollMaxMs: number;
  sleep: Sleep | undefined;
}

/** Every default of the Steel provider, in one place. */
export const steelDefaults = {
  baseURL: "https://api.steel.dev",
  selfHosted: false,
  sessionTimeoutMs: 15 * 60_000,
  viewport: { width: limits.viewport.widthDefault, height: limits.viewport.heightDefault },
  filesFolder: "/files",
  rateLimitCapMs: 10_000,
  profileReadyTimeoutMs: 60_000,
  profilePollMs: 500,
  profilePollMaxMs: 5_000,
  requestTimeoutMs: 60_000,
  launchTimeoutMs: 30_000,
  launchPollMs: 250,
  launchPollMaxMs: 2_000,
} as const;

/** Settings a self-hosted steel-browser accepts and then ignores (cloud features): refused with `selfHosted`. */
const cloudOnlySettings = ["useProxy", "solveCaptcha", "region", "stealthConfig"] as const;


const plainObject = (what: string) =>
  v.custom<Record<string, unknown>>((input) => typeof input === "object" && input !== null && !Array.isArray(input), `expected ${what} as an object`);

const SteelOptionsSchema = v.strictObject(
  {
    apiKey: v.optional(
      v.pipe(
        v.string("expected the API key as a string"),
        v.minLength(1, "expected a non-empty API key"),
        v.maxLength(4096, "longer than 4096 characters"),
        // Custom message: never echo the key.
        v.regex(/^[\x21-\x7e]+$/, "expected printable ASCII without spaces"),
      ),
    ),
    baseURL: v.optional(
      v.pipe(
        v.string("expected the base URL as a string"),
        v.check((value) => baseUrlProblem(value) === undefined, (issue) => baseUrlProblem(issue.input as string) ?? "invalid URL"),
      ),
    ),
    fetch: v.optional(v.function("expected a fetch function")),
    selfHosted: v.optional(v.boolean("expected a boolean")),
    useProxy: v.optional(v.union([v.boolean(), plainObject("a proxy setting")], "expected a boolean or a proxy object")),
    solveCaptcha: v.optional(v.boolean("expected a boolean")),
    blockAds: v.optional(v.boolean("expected a boolean")),
    stealthConfig: v.optional(plainObject("the stealth settings")),
    region: v.optional(v.pipe(v.string("expected a region as a string"), v.regex(/^[a-z0-9-]{1,32}$/, "expected a region code such as iad"))),
    userAgent: v.optional(v.pipe(v.string("expected a string"), v.minLength(1, "expected a non-empty user agent"), v.maxLength(1024, "longer than 1024 characters"))),
    optimizeBandwidth: v.optional(v.union([v.boolean(), plainObject("bandwidth settings")], "expected a boolean or an object")),
    deviceConfig: v.optional(plainObject("the device settings")),
    sessionTimeoutMs: v.optional(integerIn(10_000, 24 * 60 * 60_000)),
    viewport: v.optional(
      v.strictObject({
        width: integerIn(limits.viewport.widthMin, limits.viewport.widthMax),
        height: integerIn(limits.viewport.heightMin, limits.viewport.heightMax),
      }, "expected { width, height }"),
    ),
    filesFolder: v.optional(
      v.pipe(
        v.string("expected the files folder as a string"),
        v.maxLength(1024, "longer than 1024 characters"),
        v.check((value) => /^\/[^\0]*$/.test(value) && !value.split("/").some((part) => part === ".." || part === "."), "expected an absolute path without . or .. segments"),
      ),
    ),
    profileStore: v.optional(
      v.custom<ProfileStore>(
        (input) =>
          typeof input === "object" &&
          input !== null &&
          ["get", "set", "delete"].every((name) => typeof (input as Record<string, unknown>)[name] === "function"),
        "expected a ProfileStore ({ get, set, delete })",
      ),
    ),
    rateLimitCapMs: v.optional(integerIn(0, 10 * 60_000)),
    profileReadyTimeoutMs: v.optional(integerIn(0, 60 * 60_000)),
    profilePollMs: v.optional(integerIn(1, 60_000)),
    requestTimeoutMs: v.optional(integerIn(1, 10 * 60_000)),
    launchTimeoutMs: v.optional(integerIn(0, 10 * 60_000)),
    sleep: v.optional(v.function("expected a function")),
  },
  "expected an options object",
);

/**
 * Validates Steel provider options and fills in the defaults. Throws a
 * `ValidationError` naming the field; a message never repeats the key.
 *
 * @example
 * ```ts
 * const resolved = resolveSteelOptions({ apiKey: env.STEEL_API_KEY });
 * resolved.sessionTimeoutMs; // 900000
 * ```
 */
export function resolveSteelOptions(options: SteelRestProviderOptions): ResolvedSteelOptions {
  const parsed = parseWith(SteelOptionsSchema, options, "options");
  const selfHosted = parsed.selfHosted ?? steelDefaults.selfHosted;
  if (parsed.apiKey === undefined && !selfHosted) {
    throw new ValidationError("options.apiKey", "required for Steel cloud (only a self-hosted steel-browser, selfHosted: true, runs without one)");
  }
  if (selfHosted) {
    for (const field of cloudOnlySettings) {
      if (parsed[field] !== undefined && parsed[field] !== false) {
        throw new ValidationError(`options.${field}`, "a self-hosted steel-browser ignores this setting (Steel cloud only); leave it out with selfHosted: true");
      }
    }
  }
  const settings: ResolvedSteelOptions["sessionSettings"] = {};
  if (parsed.useProxy !== undefined) settings.useProxy = parsed.useProxy;
  if (parsed.solveCaptcha !== undefined) settings.solveCaptcha = parsed.solveCaptcha;
  if (parsed.blockAds !== undefined) settings.blockAds = parsed.blockAds;
  if (parsed.stealthConfig !== undefined) settings.stealthConfig = parsed.stealthConfig as Steel.SessionCreateParams.StealthConfig;
  if (parsed.region !== undefined) settings.region = parsed.region;
  if (parsed.userAgent !== undefined) settings.userAgent = parsed.userAgent;
  if (parsed.optimizeBandwidth !== undefined) settings.optimizeBandwidth = parsed.optimizeBandwidth as Steel.SessionCreateParams["optimizeBandwidth"];
  if (parsed.deviceConfig !== undefined) settings.deviceConfig = parsed.deviceConfig as Steel.SessionCreateParams.DeviceConfig;
  return {
    apiKey: parsed.apiKey,
    baseURL: (parsed.baseURL ?? steelDefaults.baseURL).replace(/\/+$/, ""),
    fetch: (parsed.fetch as typeof globalThis.fetch | undefined) ?? ((input, init) => globalThis.fetch(input, init)),
    selfHosted,
    sessionSettings: settings,
    sessionTimeoutMs: parsed.sessionTimeoutMs ?? steelDefaults.sessionTimeoutMs,
    viewport: parsed.viewport ?? { ...steelDefaults.viewport },
    filesFolder: (parsed.filesFolder ?? steelDefaults.filesFolder).replace(/(.)\/+$/, "$1"),
    profileStore: parsed.profileStore ?? createMemoryProfileStore(),
    rateLimitCapMs: parsed.rateLimitCapMs ?? steelDefaults.rateLimitCapMs,
    profileReadyTimeoutMs: parsed.profileReadyTimeoutMs ?? steelDefaults.profileReadyTimeoutMs,
    profilePollMs: parsed.profilePollMs ?? steelDefaults.profilePollMs,
    profilePollMaxMs: Math.max(parsed.profilePollMs ?? steelDefaults.profilePollMs, steelDefaults.profilePollMaxMs),
    requestTimeoutMs: parsed.requestTimeoutMs ?? steelDefaults.requestTimeoutMs,
    launchTimeoutMs: parsed.launchTimeoutMs ?? steelDefaults.launchTimeoutMs,
    launchPollMs: steelDefaults.launchPollMs,
    launchPollMaxMs: steelDefaults.launchPollMaxMs,
    sleep: parsed.sleep as Sleep | undefined,
  };
}
