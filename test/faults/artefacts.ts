/**
 * What the fault suite produced, for the secrets scan: worker answers, tool
 * results, errors, the suite's own output (installed with {@link captureLogs})
 * and files under state roots. Groups feed it; the secrets group scans it last.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { StateStore } from "../../src/lifecycle/stores.js";

export interface Artefact {
  /** What it is: `worker answer`, `tool result`, `error`, `log`, `file <path>`. */
  kind: string;
  text: string;
  /** A worker answer: it may hand out a control or view token (to whoever holds the lease or the link). */
  answer?: boolean;
}

export const artefacts: Artefact[] = [];

/** Adds `texts` as artefacts of `kind`. */
export function collect(kind: string, ...texts: string[]): void {
  for (const text of texts) artefacts.push({ kind, text });
}

/** Adds worker answers (bodies as sent). */
export function collectAnswers(bodies: readonly string[]): void {
  for (const text of bodies) artefacts.push({ kind: "worker answer", text, answer: true });
}

/** Adds an error with everything that can be read from it: name, message, stack, own fields, causes. */
export function collectError(kind: string, error: unknown): void {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    if (current instanceof Error) {
      const fields = Object.fromEntries(Object.getOwnPropertyNames(current).map((name) => [name, (current as unknown as Record<string, unknown>)[name]]));
      collect(kind, `${current.name}: ${current.message}\n${current.stack ?? ""}`, safeJson(fields));
      current = current.cause;
    } else {
      collect(kind, String(current), safeJson(current));
      break;
    }
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/** Adds every file under `directory` (read as Latin-1, so binary files are scanned byte for byte). */
export async function collectDirectory(directory: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir(directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    artefacts.push({ kind: `file ${path}`, text: await readFile(path, "latin1") });
    count++;
  }
  return count;
}

/** Adds what a manager's state store holds (journal entries, checkpoints, release ledger, pacing), read as the next owner would: call it after the manager closed. */
export async function collectStore(store: StateStore): Promise<number> {
  const state = await store.open({});
  const before = artefacts.length;
  collect("journal entry", ...state.journal.map((entry) => JSON.stringify(entry)));
  collect("checkpoint", ...state.checkpoints.map((checkpoint) => JSON.stringify(checkpoint)));
  if (state.ledger) collect("release ledger", JSON.stringify(state.ledger));
  if (state.pacing) collect("pacing counters", JSON.stringify(state.pacing));
  await store.close();
  return artefacts.length - before;
}

const reading = new Set<Promise<void>>();

/** `fetch` that also adds every answer's body (read from a clone) as a worker answer: pass it to a client. */
export const capturingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const read = response
    .clone()
    .text()
    .then(
      (text) => void artefacts.push({ kind: "worker answer", text, answer: true }),
      () => undefined,
    )
    .finally(() => reading.delete(read));
  reading.add(read);
  return response;
};

/** Resolves once every answer {@link capturingFetch} saw has been read. */
export async function capturesSettled(): Promise<void> {
  while (reading.size > 0) await Promise.all([...reading]);
}

let capturing = false;

/** Copies everything this process writes to stdout and stderr into the artefacts, as `log`. */
export function captureLogs(): void {
  if (capturing) return;
  capturing = true;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      collect("log", typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("latin1"));
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
}
