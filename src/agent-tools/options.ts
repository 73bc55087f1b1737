import * as v from "valibot";
import { ValidationError } from "../errors.js";
import { integerIn, profileId } from "../protocol/fields.js";
import { callerLimits } from "../protocol/limits.js";
import { OpenOptionsSchema, type OpenOptions } from "../protocol/open-options.js";
import { parseWith } from "../protocol/parse.js";
import type { BrowserBackend } from "../protocol/backend.js";
import { agentToolLimits } from "./limits.js";
import type { TakeoverNotice } from "./takeover.js";

/** Tool groups beyond the default set, enabled by option. */
export const agentToolGroups = ["coordinates", "diagnostics", "downloads"] as const;
/** A tool group beyond the default set. */
export type AgentToolGroup = (typeof agentToolGroups)[number];

/** Options of {@link createBrowserAgentTools}. */
export interface BrowserAgentToolsOptions {
  /**
   * The browser backend: a `BrowserUseClient` (remote worker) or a
   * `BrowserSessionManager` (in-process) — anything that implements `BrowserBackend`.
   */
  client: BrowserBackend;
  /** Sessions this toolset may hold open at once (1–256). */
  maxSessions: number;
  /** Host profile ids the model may open (each at most once at a time). Default: none. */
  profileIds?: readonly string[];
  /**
   * Host secrets by name (`{ github_password: "…" }`). The model names a
   * secret (`secret: "github_password"`) where it would type a value and never
   * sees the value; every value is redacted from every text result. Values
   * need at least 4 characters.
   */
  secrets?: Readonly<Record<string, string>>;
  /** Bytes of text per tool result (UTF-8; 1 KiB–1 MiB). Default 16 KiB. */
  maxTextBytes?: number;
  /** Extra tool groups: `coordinates` (mouse by CSS pixels), `diagnostics` (console and network events), `downloads`. */
  groups?: readonly AgentToolGroup[];
  /** Bytes of the "what changed on the page" summary of action results (0 turns it off, max 16 KiB). Default 1 KiB. */
  changeSummaryBytes?: number;
  /** Open options the host fixes for every session (viewport, console text). The model cannot set them. */
  open?: Pick<OpenOptions, "viewport" | "consoleText">;
  /** A login wall also hands the session to a human (as a challenge, block or throttle always does). Default false. */
  takeoverOnLoginWall?: boolean;
  /** The live view URL of a session (backend id) for a human to take over; a view URL, never a control token. */
  liveView?: (sessionId: string) => Promise<string | undefined>;
  /** Called when a session needs a human: its mutating tool calls are refused until the page no longer shows the challenge. */
  onTakeover?: (notice: TakeoverNotice) => void | Promise<void>;
}

/** Options after validation, with every default filled in. */
export interface ResolvedBrowserAgentToolsOptions {
  backend: BrowserBackend;
  maxSessions: number;
  profileIds: ReadonlySet<string>;
  secrets: ReadonlyMap<string, string>;
  maxTextBytes: number;
  groups: ReadonlySet<AgentToolGroup>;
  changeSummaryBytes: number;
  open: Pick<OpenOptions, "viewport" | "consoleText">;
  takeoverOnLoginWall: boolean;
  liveView: ((sessionId: string) => Promise<string | undefined>) | undefined;
  onTakeover: ((notice: TakeoverNotice) => void | Promise<void>) | undefined;
}

const backendMethods = ["open", "execute", "closeSession", "list", "checkpoint", "resumeCheckpoint", "control", "reconcile"] as const;

const isBackend = (value: unknown) =>
  typeof value === "object" && value !== null && backendMethods.every((method) => typeof (value as Record<string, unknown>)[method] === "function");

const optionalFunction = v.optional(v.custom<unknown>((value) => typeof value === "function", "expected a function"));

const SecretNameSchema = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, "expected a secret name of letters, digits, '_', '.' or '-'"),
  v.maxLength(agentToolLimits.secretNameLength, `secret names have at most ${agentToolLimits.secretNameLength} characters`),
);

// Messages never echo a secret value.
const SecretValueSchema = v.pipe(
  v.string("expected the secret's value as a string"),
  v.minLength(agentToolLimits.secretValueMin, `expected at least ${agentToolLimits.secretValueMin} characters (shorter values cannot be redacted safely)`),
  v.maxLength(callerLimits.valueLength, `longer than ${callerLimits.valueLength} characters`),
);

const OptionsSchema = v.strictObject(
  {
    client: v.custom<BrowserBackend>(isBackend, `expected a BrowserBackend (a BrowserUseClient or a BrowserSessionManager) with ${backendMethods.join(", ")}`),
    maxSessions: integerIn(1, callerLimits.manager.maxSessionsMax),
    profileIds: v.optional(
      v.pipe(
        v.array(profileId, "expected an array of profile ids"),
        v.maxLength(agentToolLimits.profileIds, `at most ${agentToolLimits.profileIds} profile ids`),
      ),
    ),
    // Each name and value is checked after this (see parseSecrets): a record schema would weigh more than the loop.
    secrets: v.optional(
      v.custom<Record<string, unknown>>(
        (value) => typeof value === "object" && value !== null && !Array.isArray(value),
        "expected an object of secret name → value",
      ),
    ),
    maxTextBytes: v.optional(integerIn(agentToolLimits.textBytesMin, agentToolLimits.textBytesMax)),
    groups: v.optional(
      v.array(
        v.picklist(
          agentToolGroups,
          `expected one of ${agentToolGroups.map((group) => `"${group}"`).join(", ")} (recordings are not part of BrowserBackend, so there is no recordings group)`,
        ),
        "expected an array of tool groups",
      ),
    ),
    changeSummaryBytes: v.optional(integerIn(0, agentToolLimits.changeSummaryBytesMax)),
    open: v.optional(v.strictObject({ viewport: OpenOptionsSchema.entries.viewport, consoleText: OpenOptionsSchema.entries.consoleText })),
    takeoverOnLoginWall: v.optional(v.boolean()),
    liveView: optionalFunction as v.OptionalSchema<v.GenericSchema<(sessionId: string) => Promise<string | undefined>>, undefined>,
    onTakeover: optionalFunction as v.OptionalSchema<v.GenericSchema<(notice: TakeoverNotice) => void | Promise<void>>, undefined>,
  },
  "expected an options object",
);

/**
 * Validates the options of {@link createBrowserAgentTools} and fills in the
 * defaults.
 *
 * @throws `ValidationError` naming the option, e.g. `options.profileIds[1]: expected a profile id…`.
 * @example
 * ```ts
 * const resolved = resolveBrowserAgentToolsOptions({ client, maxSessions: 1 });
 * resolved.maxTextBytes; // 16384
 * ```
 */
export function resolveBrowserAgentToolsOptions(options: BrowserAgentToolsOptions): ResolvedBrowserAgentToolsOptions {
  const parsed = parseWith(OptionsSchema, options, "options");
  const secrets = parseSecrets(parsed.secrets ?? {});
  return {
    backend: parsed.client,
    maxSessions: parsed.maxSessions,
    profileIds: new Set(parsed.profileIds ?? []),
    secrets: new Map(secrets),
    maxTextBytes: parsed.maxTextBytes ?? agentToolLimits.textBytesDefault,
    groups: new Set(parsed.groups ?? []),
    changeSummaryBytes: parsed.changeSummaryBytes ?? agentToolLimits.changeSummaryBytesDefault,
    open: parsed.open ?? {},
    takeoverOnLoginWall: parsed.takeoverOnLoginWall ?? false,
    liveView: parsed.liveView,
    onTakeover: parsed.onTakeover,
  };
}

/** The host secrets as name → value, each checked, or a `ValidationError` naming `options.secrets.<name>`. */
function parseSecrets(secrets: Record<string, unknown>): [string, string][] {
  const entries = Object.entries(secrets);
  if (entries.length > agentToolLimits.secrets) throw new ValidationError("options.secrets", `at most ${agentToolLimits.secrets} secrets`);
  return entries.map(([name, value]) => {
    const field = `options.secrets.${name}`;
    return [parseWith(SecretNameSchema, name, field), parseWith(SecretValueSchema, value, field)];
  });
}
