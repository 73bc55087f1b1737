/** Why a view token was refused. */
export type ViewTokenRefusal = "missing" | "malformed" | "signature" | "expired";

/** What a valid view token names. */
export interface ViewGrant {
  sessionId: string;
  /** Expiry, ms since the epoch. */
  expiresAt: number;
}

/** Issues and checks view tokens; the secret stays inside. */
export interface ViewTokens {
  issue(sessionId: string, ttlMs: number): Promise<{ token: string; expiresAt: number }>;
  verify(token: string | null | undefined): Promise<{ ok: true; grant: ViewGrant } | { ok: false; reason: ViewTokenRefusal }>;
}

const encoder = new TextEncoder();
const version = "v1";

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/**
 * Short-lived signed view tokens for the live view page:
 * `v1.<session id, base64url>.<expiry ms>.<HMAC-SHA-256, base64url>`, signed
 * with WebCrypto under a secret made for this worker (32 random bytes; tokens
 * die with the worker). The signature is checked with `crypto.subtle.verify`,
 * which compares in constant time, before anything in the token is trusted.
 */
export function createViewTokens(now: () => number, secret: Uint8Array<ArrayBuffer> = crypto.getRandomValues(new Uint8Array(32))): ViewTokens {
  const key = crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  return {
    async issue(sessionId, ttlMs) {
      const expiresAt = now() + ttlMs;
      const payload = `${version}.${toBase64Url(encoder.encode(sessionId))}.${expiresAt}`;
      const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await key, encoder.encode(payload)));
      return { token: `${payload}.${toBase64Url(signature)}`, expiresAt };
    },
    async verify(token) {
      if (token === null || token === undefined || token === "") return { ok: false, reason: "missing" };
      const parts = token.length <= 1024 ? token.split(".") : [];
      if (parts.length !== 4 || parts[0] !== version || !/^\d{1,16}$/.test(parts[2]!)) return { ok: false, reason: "malformed" };
      const signature = fromBase64Url(parts[3]!);
      const name = fromBase64Url(parts[1]!);
      if (!signature || !name) return { ok: false, reason: "malformed" };
      const signed = encoder.encode(parts.slice(0, 3).join("."));
      if (!(await crypto.subtle.verify("HMAC", await key, signature, signed))) return { ok: false, reason: "signature" };
      const expiresAt = Number(parts[2]);
      if (expiresAt <= now()) return { ok: false, reason: "expired" };
      return { ok: true, grant: { sessionId: new TextDecoder().decode(name), expiresAt } };
    },
  };
}
