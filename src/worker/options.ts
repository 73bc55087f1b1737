import * as v from "valibot";
import { ValidationError } from "../errors.js";
import type { BrowserSessionManager } from "../lifecycle/manager.js";
import { integerIn, profileId } from "../protocol/fields.js";
import { limits } from "../protocol/limits.js";
import { parseWith } from "../protocol/parse.js";
import { wireLimits } from "../protocol/wire.js";

/** Options of {@link createBrowserWorker}. */
export interface BrowserWorkerOptions {
  /** The manager that owns the browsers. `close()` of the worker closes it. */
  manager: BrowserSessionManager;
  /** The operator (execution) token: at least 32 printable characters, no spaces. */
  token: string;
  /** This worker's station id, as it appears in the routes. */
  stationId: string;
  /** Tenant keys: key → tenant id. A tenant key works on the tenant route only and sees only its tenant's sessions. */
  tenants?: Record<string, string>;
  /**
   * For a worker that serves one tenant: on the tenant route, the operator
   * token acts as this tenant (and sees only its sessions). Without it the
   * operator token works on the operator route only.
   */
  tenantId?: string;
  /**
   * Which tenant may open each profile id (profile id → tenant id). A tenant
   * opens only its own profiles; the operator opens any profile the manager
   * grants. Grant the ids on the manager too (`profileGrants`).
   */
  profileOwners?: Record<string, string>;
  /**
   * Browser sessions one tenant may hold at once (open, and opens in flight),
   * so one tenant cannot take every slot of the manager; more get 429
   * `capacity`. No quota by default; the operator has none.
   */
  tenantMaxSessions?: number;
  /** Largest request body (bytes) other than an `upload` command; at most (and by default) 128 KiB. */
  maxRequestBytes?: number;
  /** Request bodies over `maxRequestBytes` (uploads) received at once (default 2); more get 429 `capacity`. */
  maxLargeBodies?: number;
  /** Largest response body (bytes); at most (and by default) 33 MiB. */
  maxResponseBytes?: number;
  /** How long `close()` waits for requests in flight before closing the manager (ms, default 10 000). */
  closeGraceMs?: number;
  /** Called with every failure that is not an error of this package (answered as `internal`). Never gets a token. */
  onError?: (error: unknown, context: { method: string | undefined }) => void;
  /** Where the worker reads the time for live view token expiry (default `Date.now`), so a test can move it. */
  clock?: { now(): number };
}

/** A tenant key, kept only as long as needed to hash it. */
export interface TenantKey {
  key: string;
  tenantId: string;
}

/** Options after defaults and validation. */
export interface ResolvedBrowserWorkerOptions {
  manager: BrowserSessionManager;
  token: string;
  stationId: string;
  tenants: TenantKey[];
  tenantId: string | undefined;
  profileOwners: Map<string, string>;
  tenantMaxSessions: number | undefined;
  maxRequestBytes: number;
  maxResponseBytes: number;
  maxLargeBodies: number;
  closeGraceMs: number;
  onError: (error: unknown, context: { method: string | undefined }) => void;
  now: () => number;
}

const idPattern = /^[A-Za-z0-9._:-]{1,128}$/;
const idRule = "expected 1–128 letters, digits, '.', '_', ':' or '-'";

const ScalarOptionsSchema = v.object({
  stationId: v.pipe(v.string("expected a string"), v.regex(idPattern, idRule)),
  tenantId: v.optional(v.pipe(v.string("expected a string"), v.regex(idPattern, idRule))),
  profileOwners: v.optional(v.record(profileId, v.pipe(v.string("expected a tenant id"), v.regex(idPattern, idRule)), "expected an object mapping profile ids to tenant ids")),
  tenantMaxSessions: v.optional(integerIn(1, limits.manager.maxSessionsMax)),
  maxRequestBytes: v.optional(integerIn(1024, wireLimits.requestBytes)),
  maxResponseBytes: v.optional(integerIn(1024, wireLimits.responseBytes)),
  maxLargeBodies: v.optional(integerIn(1, 64)),
  closeGraceMs: v.optional(integerIn(0, 10 * 60_000)),
});

/** Problems with a secret; the secret itself is never part of the message. */
function secretProblem(secret: unknown, what: string): string | undefined {
  if (typeof secret !== "string") return `expected ${what} as a string`;
  if (secret.length < wireLimits.tokenMinLength) {
    return `${what} must have at least ${wireLimits.tokenMinLength} characters (it has ${secret.length})`;
  }
  if (secret.length > 4096) return `${what} must have at most 4096 characters`;
  if (!/^[\x21-\x7e]+$/.test(secret)) return `${what} must be printable ASCII without spaces (it travels in an Authorization header)`;
  return undefined;
}

function resolveTenants(tenants: unknown, token: string): TenantKey[] {
  if (tenants === undefined) return [];
  if (typeof tenants !== "object" || tenants === null || Array.isArray(tenants)) {
    throw new ValidationError("options.tenants", "expected an object mapping each tenant key to its tenant id");
  }
  return Object.entries(tenants).map(([key, tenantId], index) => {
    if (typeof tenantId !== "string" || !idPattern.test(tenantId)) {
      throw new ValidationError(`options.tenants (entry ${index + 1})`, `tenant id: ${idRule}`);
    }
    const problem = secretProblem(key, `the key of tenant ${tenantId}`);
    if (problem) throw new ValidationError(`options.tenants (tenant ${tenantId})`, problem);
    if (key === token) throw new ValidationError(`options.tenants (tenant ${tenantId})`, "a tenant key must differ from the operator token");
    return { key, tenantId };
  });
}

/**
 * Applies defaults and validates. Messages name the field but never contain a
 * token or key.
 *
 * @throws {ValidationError} for a token shorter than 32 characters, a bad tenant entry or an out-of-range limit.
 * @example
 * ```ts
 * resolveBrowserWorkerOptions({ manager, stationId: "local", token: "short" }); // throws "options.token: the execution token must have at least 32 characters (it has 5)"
 * ```
 */
export function resolveBrowserWorkerOptions(options: BrowserWorkerOptions): ResolvedBrowserWorkerOptions {
  if (typeof options !== "object" || options === null) throw new ValidationError("options", "expected an object");
  const { manager, token } = options;
  if (typeof manager !== "object" || manager === null || typeof manager.execute !== "function") {
    throw new ValidationError("options.manager", "expected a BrowserSessionManager");
  }
  const tokenProblem = secretProblem(token, "the execution token");
  if (tokenProblem) throw new ValidationError("options.token", tokenProblem);
  const tenants = resolveTenants(options.tenants, token);
  const scalars = parseWith(ScalarOptionsSchema, options, "options");
  return {
    manager,
    token,
    stationId: scalars.stationId,
    tenants,
    tenantId: scalars.tenantId,
    profileOwners: new Map(Object.entries(scalars.profileOwners ?? {})),
    tenantMaxSessions: scalars.tenantMaxSessions,
    maxRequestBytes: scalars.maxRequestBytes ?? wireLimits.requestBytes,
    maxResponseBytes: scalars.maxResponseBytes ?? wireLimits.responseBytes,
    maxLargeBodies: scalars.maxLargeBodies ?? 2,
    closeGraceMs: scalars.closeGraceMs ?? 10_000,
    onError: options.onError ?? (() => undefined),
    now: resolveNow(options.clock),
  };
}

function resolveNow(clock: unknown): () => number {
  if (clock === undefined) return Date.now;
  if (typeof clock !== "object" || clock === null || typeof (clock as { now?: unknown }).now !== "function") {
    throw new ValidationError("options.clock", "expected an object with a now() method");
  }
  const source = clock as { now(): number };
  return () => source.now();
}
