/**
 * Options of the Browserbase provider: what the operator may set, the
 * defaults in one table, and validation at the boundary. Neutral code.
 */
import type { Browserbase } from "@browserbasehq/sdk";
import * as v from "valibot";
import { baseUrlProblem, integerIn } from "../../protocol/fields.js";
import { limits } from "../../protocol/limits.js";
import { parseWith } from "../../protocol/parse.js";
import { createMemoryProfileStore, type ProfileStore } from "../hosted/profile-store.js";
import type { Viewport } from "../types.js";
import type { Sleep } from "../hosted/rate-limit.js";

/** A Browserbase region. */
export type BrowserbaseRegion = NonNullable<Browserbase.SessionCreateParams["region"]>;

/** Browserbase proxies: `true` for its default proxy, or a list of proxy configurations. */
export type BrowserbaseProxies = NonNullable<Browserbase.SessionCreateParams["proxies"]>;

/**
 * Further `browserSettings` passed through as they are (`os`, `recordSession`,
 * `logSession`, `verified`, `allowedDomains`, `ignoreCertificateErrors`,
 * `extensionId`, captcha selectors, …). The provider sets `context` and
 * `viewport` itself, and the named options `blockAds` / `solveCaptchas` win
 * over the same keys here.
 */
export type BrowserbaseBrowserSettings = Omit<Browserbase.SessionCreateParams.BrowserSettings, "context" | "viewport">;

export type { Sleep };

/** Options of {@link createBrowserbaseRestProvider}. */
export interface BrowserbaseRestProviderOptions {
  /** The Browserbase API key. Sent as `X-BB-API-Key`; never put in a result, error or log. */
  apiKey: string;
  /** The project; without it Browserbase takes the key's project. */
  projectId?: string;
  /** API origin (default `https://api.browserbase.com`; the `BROWSERBASE_BASE_URL` variable is not read). */
  baseURL?: string;
  /** The fetch to use (default: the global one, looked up at each call, so test interceptors installed later apply). */
  fetch?: typeof globalThis.fetch;
  /** Where sessions run. */
  region?: BrowserbaseRegion;
  /** Browserbase proxies (`true`, or a list of proxy configurations). */
  proxies?: BrowserbaseProxies;
  /** Let Browserbase solve CAPTCHAs (its default is on). Nothing promises CAPTCHA-free access. */
  solveCaptchas?: boolean;
  /** Block ads (Browserbase's default is off). */
  blockAds?: boolean;
  /** Keep the session alive when the CDP connection drops; it then ends only on release or timeout. */
  keepAlive?: boolean;
  /** Session lifetime (ms, 60 000–21 600 000); sent in whole seconds, rounded up. Default: the project's. */
  sessionTimeoutMs?: number;
  /** Viewport when `create` names none (default 1280×800, as for the local provider). */
  viewport?: Viewport;
  /** Further browser settings passed through (see {@link BrowserbaseBrowserSettings}). */
  browserSettings?: BrowserbaseBrowserSettings;
  /** Host profile id → Browserbase context id (default: in memory, lost at exit). */
  profileStore?: ProfileStore;
  /** Total time spent waiting on 429s in one call before `CapacityError` (ms, default 10 000). */
  rateLimitCapMs?: number;
  /** Time limit of one HTTP request (ms, default 30 000). */
  requestTimeoutMs?: number;
  /** Read the live view URL (`sessions.debug`) right after `create` (default `true`; one extra GET). */
  liveView?: boolean;
  /** Pause after a persisting session reads ended, before its context is reused (ms, default 5000; Browserbase has no ready flag). */
  persistSettleMs?: number;
  /** Longest total wait for a persisting session to read ended (ms, default 120 000), then `ProfileError`. */
  persistTimeoutMs?: number;
  /** Timer used for 429 waits, polling and the settle delay (tests pass a fake). */
  sleep?: Sleep;
}

/** Options after validation, with the defaults filled in. */
export interface ResolvedBrowserbaseOptions {
  apiKey: string;
  projectId: string | undefined;
  baseURL: string;
  fetch: typeof globalThis.fetch;
  region: BrowserbaseRegion | undefined;
  proxies: BrowserbaseProxies | undefined;
  solveCaptchas: boolean | undefined;
  blockAds: boolean | undefined;
  keepAlive: boolean | undefined;
  /** Whole seconds, or undefined for the project's default. */
  sessionTimeoutSeconds: number | undefined;
  viewport: Viewport;
  browserSettings: BrowserbaseBrowserSettings;
  profileStore: ProfileStore;
  rateLimitCapMs: number;
  requestTimeoutMs: number;
  liveView: boolean;
  persistSettleMs: number;
  persistTimeoutMs: number;
  sleep: Sleep | undefined;
}

/** Every default of the Browserbase provider, in one place. */
export const browserbaseDefaults = {
  baseURL: "https://api.browserbase.com",
  rateLimitCapMs: 10_000,
  requestTimeoutMs: 30_000,
  liveView: true,
  persistSettleMs: 5_000,
  persistTimeoutMs: 120_000,
  viewport: { width: limits.viewport.widthDefault, height: limits.viewport.heightDefault },
} as const;


const OptionsSchema = v.strictObject(
  {
    apiKey: v.pipe(
      v.string("expected the API key as a string"),
      v.minLength(1, "expected a non-empty API key"),
      v.maxLength(4096, "longer than 4096 characters"),
      // Custom message: never echo the key.
      v.regex(/^[\x21-\x7e]+$/, "expected printable ASCII without spaces"),
    ),
    projectId: v.optional(v.pipe(v.string("expected a string"), v.regex(/^[A-Za-z0-9_-]{1,128}$/, "expected letters, digits, '_' or '-'"))),
    baseURL: v.optional(
      v.pipe(
        v.string("expected a URL as a string"),
        v.check((value) => baseUrlProblem(value) === undefined, (issue) => baseUrlProblem(issue.input as string) ?? "invalid URL"),
      ),
    ),
    fetch: v.optional(v.function("expected a fetch function")),
    region: v.optional(v.picklist(["us-west-2", "us-east-1", "eu-central-1", "ap-southeast-1"], "expected a Browserbase region")),
    proxies: v.optional(v.union([v.boolean(), v.array(v.looseObject({ type: v.string() }))], "expected true, false or a list of proxy configurations")),
    solveCaptchas: v.optional(v.boolean("expected a boolean")),
    blockAds: v.optional(v.boolean("expected a boolean")),
    keepAlive: v.optional(v.boolean("expected a boolean")),
    sessionTimeoutMs: v.optional(integerIn(60_000, 21_600_000)),
    viewport: v.optional(
      v.strictObject({
        width: integerIn(limits.viewport.widthMin, limits.viewport.widthMax),
        height: integerIn(limits.viewport.heightMin, limits.viewport.heightMax),
      }),
    ),
    browserSettings: v.optional(v.looseObject({}, "expected an object")),
    profileStore: v.optional(
      v.looseObject({ get: v.function(), set: v.function(), delete: v.function() }, "expected a ProfileStore (get, set, delete)"),
    ),
    rateLimitCapMs: v.optional(integerIn(0, 600_000)),
    requestTimeoutMs: v.optional(integerIn(1, 600_000)),
    liveView: v.optional(v.boolean("expected a boolean")),
    persistSettleMs: v.optional(integerIn(0, 600_000)),
    persistTimeoutMs: v.optional(integerIn(0, 3_600_000)),
    sleep: v.optional(v.function("expected a function")),
  },
  "expected an options object",
);

/**
 * Validates the options and fills in the defaults. Throws a `ValidationError`
 * naming the field (`options.sessionTimeoutMs: expected a number ≥ 60000`).
 *
 * @example
 * ```ts
 * const resolved = resolveBrowserbaseOptions({ apiKey, sessionTimeoutMs: 300_000 });
 * resolved.sessionTimeoutSeconds; // 300
 * ```
 */
export function resolveBrowserbaseOptions(options: BrowserbaseRestProviderOptions): ResolvedBrowserbaseOptions {
  parseWith(OptionsSchema, options, "options");
  return {
    apiKey: options.apiKey,
    projectId: options.projectId,
    baseURL: (options.baseURL ?? browserbaseDefaults.baseURL).replace(/\/+$/, ""),
    // Looked up at each call: the SDK would otherwise keep the fetch it saw at import.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    region: options.region,
    proxies: options.proxies,
    solveCaptchas: options.solveCaptchas,
    blockAds: options.blockAds,
    keepAlive: options.keepAlive,
    sessionTimeoutSeconds: options.sessionTimeoutMs === undefined ? undefined : Math.ceil(options.sessionTimeoutMs / 1000),
    viewport: options.viewport ?? { ...browserbaseDefaults.viewport },
    browserSettings: options.browserSettings ?? {},
    profileStore: options.profileStore ?? createMemoryProfileStore(),
    rateLimitCapMs: options.rateLimitCapMs ?? browserbaseDefaults.rateLimitCapMs,
    requestTimeoutMs: options.requestTimeoutMs ?? browserbaseDefaults.requestTimeoutMs,
    liveView: options.liveView ?? browserbaseDefaults.liveView,
    persistSettleMs: options.persistSettleMs ?? browserbaseDefaults.persistSettleMs,
    persistTimeoutMs: options.persistTimeoutMs ?? browserbaseDefaults.persistTimeoutMs,
    sleep: options.sleep,
  };
}
