import * as crypto from "node:crypto";
import { AuthenticationError } from "../errors.js";
import type { TenantKey } from "./options.js";
import type { RouteScope } from "./routes.js";

/** Who is calling: the operator, or one tenant. */
export interface Caller {
  /** Undefined for the operator. */
  tenantId: string | undefined;
}

/** The outcome of checking a request's credentials against its route. */
export type AuthOutcome = { ok: true; caller: Caller } | { ok: false; error: AuthenticationError };

/** Checks an `Authorization` header for a route. */
export type Authenticate = (authorization: string | undefined, scope: RouteScope) => AuthOutcome;

/** Node's one-shot `crypto.hash` (20.12+, a third of `createHash`'s cost per request), else `createHash`. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: "buffer") => Buffer }).hash;
const digest = (secret: string): Buffer => (oneShot ? oneShot("sha256", secret, "buffer") : crypto.createHash("sha256").update(secret, "utf8").digest());

/**
 * Bearer authentication in constant time: the presented token is hashed and
 * compared with every known digest (no early exit), so neither timing nor
 * messages tell which part of a token was right. Only digests are kept.
 *
 * The operator token works on the operator route and a tenant key on the
 * tenant route only; the other combination is `forbidden` (403), unless
 * `operatorTenantId` is set: then the operator token on the tenant route acts
 * as that tenant.
 */
export function createAuthenticator(token: string, tenants: readonly TenantKey[], operatorTenantId?: string): Authenticate {
  const operator = digest(token);
  const tenantDigests = tenants.map(({ key, tenantId }) => ({ digest: digest(key), tenantId }));

  function identify(presented: string): Caller | undefined {
    const candidate = digest(presented);
    let found: Caller | undefined;
    if (crypto.timingSafeEqual(candidate, operator)) found = { tenantId: undefined };
    for (const tenant of tenantDigests) {
      if (crypto.timingSafeEqual(candidate, tenant.digest) && found === undefined) found = { tenantId: tenant.tenantId };
    }
    return found;
  }

  return (authorization, scope) => {
    if (authorization === undefined || authorization.trim() === "") {
      return refuse("unauthorized", "Missing credentials: send `Authorization: Bearer <token>`");
    }
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match) return refuse("unauthorized", "The Authorization header must have the form `Bearer <token>`");
    const caller = identify(match[1]!);
    if (!caller) return refuse("unauthorized", "The bearer token is not accepted by this worker");
    if (scope === "operator" && caller.tenantId !== undefined) {
      return refuse("forbidden", "A tenant key cannot use the operator route; use the tenant route /api/v1/tenant/stations/<stationId>/execution/browser");
    }
    if (scope === "tenant" && caller.tenantId === undefined) {
      if (operatorTenantId !== undefined) return { ok: true, caller: { tenantId: operatorTenantId } };
      return refuse("forbidden", "The operator token cannot use the tenant route; use the operator route /api/v1/stations/<stationId>/execution/browser, or a tenant key (or start the worker with a tenantId for the token to act as)");
    }
    return { ok: true, caller };
  };
}

function refuse(code: "unauthorized" | "forbidden", message: string): AuthOutcome {
  return { ok: false, error: new AuthenticationError(code, message) };
}
