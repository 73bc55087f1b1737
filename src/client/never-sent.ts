/**
 * Whether a failed `fetch` can have sent any byte of its request, judged by
 * the error shapes each runtime really throws (checked on Node 20 and 22,
 * Bun 1.4, Deno 2.9 and workerd):
 *
 * - Node (undici): `TypeError("fetch failed")` whose `cause.code` names the
 *   connect phase (`ECONNREFUSED`, `ENOTFOUND`, TLS codes…), or
 *   `cause.message === "bad port"`; an `AggregateError` cause when every
 *   address failed to connect.
 * - Bun: the `TypeError` itself carries `code` (`ECONNREFUSED`, `ENOTFOUND`…).
 * - Deno: `cause.message` says `client error (Connect)` (refused, DNS, TLS);
 *   a blocked port says `Requests to port N are blocked`; without
 *   `--allow-net` the error is `NotCapable`, raised before any connection.
 * - workerd says only `Network connection lost.` for a refused connection:
 *   that cannot be told from a connection cut after sending, so it stays
 *   "may have been sent", and `reconcile()` settles it once the worker answers.
 *
 * Neutral code: reads fields only, never a runtime's classes.
 */
const connectPhaseCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_FAIL", "UND_ERR_CONNECT_TIMEOUT", "ENETUNREACH", "EHOSTUNREACH", "ConnectionRefused"]);
const tlsCode = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/;
/** Deno's connect-phase failures (hyper's `client error (Connect)`), and fetch's refusal of a blocked port. */
const connectPhaseMessage = /client error \(Connect\)|^bad port$|Requests to port \d+ are blocked/;

const field = (value: unknown, name: string) => (typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined);

function connectPhase(value: unknown): boolean {
  const code = field(value, "code");
  if (typeof code === "string" && (connectPhaseCodes.has(code) || tlsCode.test(code))) return true;
  const message = field(value, "message");
  return typeof message === "string" && connectPhaseMessage.test(message);
}

/** True when `error` (thrown by `fetch`) proves that nothing of the request left this process. */
export function neverSent(error: unknown): boolean {
  // Deno without net permission refuses before connecting.
  if (field(error, "name") === "NotCapable") return true;
  if (connectPhase(error)) return true;
  const cause = field(error, "cause");
  if (connectPhase(cause)) return true;
  const errors = field(cause, "errors");
  return Array.isArray(errors) && errors.length > 0 && errors.every(connectPhase);
}
