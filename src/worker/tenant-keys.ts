import { ValidationError } from "../errors.js";

/**
 * Parses tenant keys in the form of `STATION_TENANT_KEYS`:
 * `key=tenantId,key2=tenantId2` (a key may itself contain `=`; the tenant id
 * is what follows the last one). Messages name the entry, never the key.
 *
 * @throws {ValidationError} for an entry without `=`, an empty key or tenant id, or a key given twice.
 * @example
 * ```ts
 * const tenants = parseTenantKeys(process.env.STATION_TENANT_KEYS ?? "");
 * createBrowserWorker({ manager, stationId: "local", token, tenants });
 * ```
 */
export function parseTenantKeys(text: string, field = "STATION_TENANT_KEYS"): Record<string, string> {
  const tenants = new Map<string, string>();
  const entries = text.split(",").map((entry) => entry.trim());
  if (entries.length === 1 && entries[0] === "") return {};
  entries.forEach((entry, index) => {
    const where = `${field} (entry ${index + 1})`;
    const split = entry.lastIndexOf("=");
    if (split <= 0 || split === entry.length - 1) throw new ValidationError(where, "expected key=tenantId");
    const key = entry.slice(0, split);
    const tenantId = entry.slice(split + 1);
    if (tenants.has(key)) throw new ValidationError(where, `this key is already given for tenant ${tenants.get(key)}`);
    tenants.set(key, tenantId);
  });
  return Object.fromEntries(tenants);
}
