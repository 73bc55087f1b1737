import { createHash } from "node:crypto";

/**
 * The open tag the manager (and so the provider) sees for a tenant's tag: a
 * UUID derived from the tenant id and the tag, so each tenant has its own
 * tag namespace. Two tenants' equal tags never meet, and nobody can probe or
 * claim another tenant's tag. Deterministic, so a tenant's `reconcile(tag)`
 * finds its open again after a worker restart. A UUID because Steel takes
 * the tag as its session id.
 *
 * @example
 * scopedOpenTag("acme", "checkout-1"); // "1b4e…-…", the same for every call
 */
export function scopedOpenTag(tenantId: string, openTag: string): string {
  const hex = createHash("sha256").update(`station-browser-use open tag\0${tenantId}\0${openTag}`).digest("hex");
  // RFC 9562 version 8 (custom) with the RFC variant bits.
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
