import { ValidationError } from "../errors.js";
import { limits } from "../protocol/limits.js";
import { workerHttpServerDefaults } from "./http-server.js";
import { parseTenantKeys } from "./tenant-keys.js";

/** What `station-browser-use worker` was asked to do. */
export interface WorkerCommandLine {
  host: string;
  port: number;
  stationId: string;
  maxSessions: number;
  stateRoot?: string;
  recordingRoot?: string;
  profileRoot?: string;
  graceMs: number;
  /** From `STATION_EXECUTION_TOKEN`. */
  token: string;
  /** From `STATION_TENANT_KEYS`. */
  tenants: Record<string, string>;
  /** The tenant the execution token acts as on the tenant route. */
  tenantId?: string;
  /** Profile ids that may be opened (`--profiles a,acme=b`). */
  profileGrants: string[];
  /** Which tenant may open each profile (`tenant=id` entries; plain ids go to `--tenant-id` when set). */
  profileOwners: Record<string, string>;
  /** Sessions one tenant may hold at once (`--tenant-max-sessions`); no quota when absent. */
  tenantMaxSessions?: number;
  /** Idle expiry of a session (ms), from `--idle-timeout` with its unit. */
  idleTimeoutMs?: number;
  /** Largest file `stageFile` takes (bytes, `--staging-max-bytes`); the engine's default when absent. */
  stagingMaxBytes?: number;
  /** Bounds of the HTTP server. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnections: number;
}

export const usage = `Usage: station-browser-use worker [options]

Runs a browser worker with local Chromium behind the station HTTP API.

Options:
  --host HOST            address to listen on (default 127.0.0.1)
  --port PORT            port; 0 picks a free one (default 8931)
  --station-id ID        this worker's station id (default local)
  --max-sessions N       browser sessions at most (default 4)
  --state-root DIR       durable journal and checkpoints
  --recording-root DIR   recording frames on disk
  --profile-root DIR     persistent browser profiles (one directory each)
  --profiles LIST        profile ids that may be opened (only granted ids open):
                         [tenant=]id,…  — a tenant opens only ids given to it;
                         plain ids are the operator's (and --tenant-id's)
  --grace-ms MS          on SIGINT/SIGTERM, time given to requests in flight (default 10000)
  --tenant-id ID         serve one tenant: the execution token acts as this tenant on the tenant route
  --tenant-max-sessions N  sessions one tenant may hold at once (default: no quota beyond --max-sessions)
  --idle-timeout DURATION  close a session after this long without actions, with its unit:
                         1500ms, 90s, 15m or 2h (default 15m; 1s to 24h)
  --staging-max-bytes N  largest file staged for an upload (default 104857600, 100 MiB; at most 1 GiB)
  --headers-timeout-ms MS  time a client has to send its request headers (default 10000)
  --request-timeout-ms MS  time a client has to send its whole request (default 30000)
  --max-connections N    HTTP connections held at once; more are dropped (default 256)
  -h, --help             show this help

Environment (secrets are read from here only, never from flags):
  STATION_EXECUTION_TOKEN  the operator token, at least 32 characters (required)
  STATION_TENANT_KEYS      tenant keys: key=tenantId,key2=tenantId2`;

/** A command line the CLI refuses; the message never contains a secret. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

const flags = [
  "host",
  "port",
  "station-id",
  "max-sessions",
  "state-root",
  "recording-root",
  "profile-root",
  "grace-ms",
  "tenant-id",
  "profiles",
  "tenant-max-sessions",
  "idle-timeout",
  "staging-max-bytes",
  "headers-timeout-ms",
  "request-timeout-ms",
  "max-connections",
] as const;
type Flag = (typeof flags)[number];
const secretLike = /token|key|secret|password|credential/i;

function integerFlag(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`--${flag} expects an integer from ${min} to ${max}`);
  }
  return value;
}

const durationUnits = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** `--idle-timeout 90s` → 90000. The unit is required: a bare number could mean either ms or s. */
function durationFlag(flag: string, text: string, minMs: number, maxMs: number): number {
  const match = /^(\d+)(ms|s|m|h)$/.exec(text.trim());
  const rule = `--${flag} expects a whole number with its unit (ms, s, m or h), e.g. 90s or 15m, from ${minMs / 1000}s to ${maxMs / 3_600_000}h`;
  if (!match) throw new UsageError(`${rule}; got ${JSON.stringify(text.slice(0, 40))}`);
  const ms = Number(match[1]) * durationUnits[match[2] as keyof typeof durationUnits];
  if (!Number.isSafeInteger(ms) || ms < minMs || ms > maxMs) throw new UsageError(`${rule}; got ${JSON.stringify(text.slice(0, 40))}`);
  return ms;
}

/** Reads `--name value` / `--name=value` pairs. A secret-looking flag is refused without echoing its value. */
function readFlags(args: readonly string[]): Map<Flag, string> {
  const values = new Map<Flag, string>();
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (!arg.startsWith("--")) throw new UsageError(`unexpected argument ${JSON.stringify(arg.slice(0, 40))}; see --help`);
    const [name = "", inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (secretLike.test(name)) {
      throw new UsageError(
        `--${name} is refused: secrets come from the environment only (STATION_EXECUTION_TOKEN, STATION_TENANT_KEYS), so they stay out of process lists and shell history`,
      );
    }
    if (!(flags as readonly string[]).includes(name)) throw new UsageError(`unknown option --${name.slice(0, 40)}; see --help`);
    const value = inline ?? args[++index];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    values.set(name as Flag, value);
  }
  return values;
}

/**
 * Parses `station-browser-use worker …` and its environment.
 *
 * @returns `"help"` for `--help`.
 * @throws {UsageError} for a bad command line or a missing/short token (messages never contain a secret).
 */
export function parseWorkerCommandLine(argv: readonly string[], environment: Record<string, string | undefined>): WorkerCommandLine | "help" {
  const [command, ...rest] = argv;
  if (command === "-h" || command === "--help" || rest.includes("-h") || rest.includes("--help")) return "help";
  if (command === undefined) throw new UsageError("missing command: station-browser-use worker [options]");
  if (command !== "worker") throw new UsageError(`unknown command ${JSON.stringify(command.slice(0, 40))}; the command is \`worker\``);
  const values = readFlags(rest);
  const token = environment.STATION_EXECUTION_TOKEN;
  if (token === undefined || token === "") throw new UsageError("STATION_EXECUTION_TOKEN is not set; set it to the operator token (at least 32 characters)");
  if (token.length < 32) throw new UsageError(`STATION_EXECUTION_TOKEN must have at least 32 characters (it has ${token.length})`);
  let tenants: Record<string, string>;
  try {
    tenants = parseTenantKeys(environment.STATION_TENANT_KEYS ?? "");
  } catch (error) {
    throw new UsageError(error instanceof ValidationError ? error.message : "STATION_TENANT_KEYS could not be read");
  }
  const parsed = {
    host: values.get("host") ?? "127.0.0.1",
    port: integerFlag("port", values.get("port") ?? "8931", 0, 65535),
    stationId: values.get("station-id") ?? "local",
    maxSessions: integerFlag("max-sessions", values.get("max-sessions") ?? "4", 1, limits.manager.maxSessionsMax),
    graceMs: integerFlag("grace-ms", values.get("grace-ms") ?? "10000", 0, 600_000),
    ...(values.has("state-root") ? { stateRoot: values.get("state-root")! } : {}),
    ...(values.has("recording-root") ? { recordingRoot: values.get("recording-root")! } : {}),
    ...(values.has("profile-root") ? { profileRoot: values.get("profile-root")! } : {}),
    ...(values.has("tenant-id") ? { tenantId: values.get("tenant-id")! } : {}),
    ...readProfiles(values.get("profiles") ?? "", values.get("tenant-id")),
    ...(values.has("tenant-max-sessions")
      ? { tenantMaxSessions: integerFlag("tenant-max-sessions", values.get("tenant-max-sessions")!, 1, limits.manager.maxSessionsMax) }
      : {}),
    ...(values.has("idle-timeout")
      ? { idleTimeoutMs: durationFlag("idle-timeout", values.get("idle-timeout")!, limits.manager.idleTimeoutMinMs, limits.manager.idleTimeoutMaxMs) }
      : {}),
    ...(values.has("staging-max-bytes")
      ? { stagingMaxBytes: integerFlag("staging-max-bytes", values.get("staging-max-bytes")!, 1, limits.staging.fileBytesMax) }
      : {}),
    headersTimeoutMs: integerFlag("headers-timeout-ms", values.get("headers-timeout-ms") ?? String(workerHttpServerDefaults.headersTimeoutMs), 100, 600_000),
    requestTimeoutMs: integerFlag("request-timeout-ms", values.get("request-timeout-ms") ?? String(workerHttpServerDefaults.requestTimeoutMs), 100, 3_600_000),
    maxConnections: integerFlag("max-connections", values.get("max-connections") ?? String(workerHttpServerDefaults.maxConnections), 1, 65_536),
    token,
    tenants,
  };
  if (parsed.headersTimeoutMs > parsed.requestTimeoutMs) {
    throw new UsageError(`--headers-timeout-ms (${parsed.headersTimeoutMs}) must not exceed --request-timeout-ms (${parsed.requestTimeoutMs})`);
  }
  return parsed;
}

/** `--profiles acme=work,shared` → grants and owners. */
function readProfiles(list: string, tenantId: string | undefined): { profileGrants: string[]; profileOwners: Record<string, string> } {
  const profileGrants: string[] = [];
  const profileOwners: Record<string, string> = {};
  for (const entry of list.split(",").map((each) => each.trim()).filter((each) => each.length > 0)) {
    const [owner, id] = entry.includes("=") ? entry.split("=", 2) : [tenantId, entry];
    if (!id || owner === "") throw new UsageError(`--profiles: ${JSON.stringify(entry.slice(0, 80))} is not [tenant=]profileId`);
    profileGrants.push(id);
    if (owner !== undefined) profileOwners[id] = owner;
  }
  return { profileGrants, profileOwners };
}
