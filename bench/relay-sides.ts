/**
 * Shared by the relay benchmarks (bench/cdp.ts, bench/edge-latency.ts): a
 * provider whose one session is a browser behind the counting relay, the
 * median, and the plain-text table they print.
 */
import type { BrowserProvider, ProviderSession } from "../src/providers/types.js";

/** A provider of one already running browser: `cdpUrl` (the relay's URL) is the session's CDP URL; release leaves the browser running. */
export function relayProvider(cdpUrl: string): BrowserProvider {
  const session: ProviderSession = { id: "relay", status: "RUNNING", cdpUrl, openTag: "", createdAt: new Date().toISOString() };
  return {
    name: "relay",
    create: async (request) => Object.assign(session, { openTag: request.openTag }),
    get: async (id) => (id === session.id ? session : undefined),
    release: async () => undefined,
    find: async (openTag) => (openTag === session.openTag ? [session] : []),
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A count as printed: whole numbers as they are, others with `digits` decimals (default 1). */
export const fmt = (value: number, digits = 0) => (Number.isInteger(value) ? String(value) : value.toFixed(digits === 0 ? 1 : digits));

/** Prints rows as aligned columns: the first left-aligned, the rest right-aligned. */
export function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  "));
}

/** A positive integer argument, or `fallback` when absent. */
export function positiveInteger(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined) return fallback;
  if (!/^[1-9]\d{0,5}$/.test(text)) throw new Error(`${name} expects a positive integer, got ${JSON.stringify(text.slice(0, 20))}`);
  return Number(text);
}
