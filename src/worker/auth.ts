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
 * messages tell which part of a token was right. Only digests of the
 * configured secrets are kept.
 *
 * A header that was accepted once is remembered (in a map bounded by the
 * number of secrets), so a client's later calls skip the hash, which on a
 * loaded machine was the largest cost of the worker before the body is read.
 * That tells nothing about a wrong token: the map holds accepted headers only,
 * a lookup compares texts only when their (per-process seeded) hashes match
 * in full, and whether a header is accepted is what the answer says anyway.
 *
 * The operator token works on the operator route and a tenant key on the
 * tenant route only; the other combination is `forbidden` (403), unless
 * `operatorTenantId` is set: then the operator token on the tenant route acts
 * as that tenant.
 */
export function createAuthenticator(token: string, tenants: readonly TenantKey[], operatorTenantId?: string): Authenticate {
  const operator = digest(token);
  const tenantDigests = tenants.map(({ key, tenantId }) => ({ digest: digest(key), tenantId }));

  /** Accepted `Authorization` headers and who they name; see above. Full: nothing more is added. */
  const accepted = new Map<string, Caller>();
  const acceptedMax = 4 * (tenants.length + 1);

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
    let caller = accepted.get(authorization);
    if (caller === undefined) {
      const match = /^Bearer +(\S+) *$/i.exec(authorization);
      if (!match) return refuse("unauthorized", "The Authorization header must have the form `Bearer <token>`");
      caller = identify(match[1]!);
      if (!caller) return refuse("unauthorized", "The bearer token is not accepted by this worker");
      if (accepted.size < acceptedMax) accepted.set(authorization, caller);
    }
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
