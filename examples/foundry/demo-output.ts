/** Writes a run's transcript (JSON) and screenshots (PNG) to a directory, with the images in the transcript replaced by their file names. */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FoundryReport } from "./run-foundry.js";

/** Replaces every image string (a data URL or bare base64 PNG) with the name of its file. */
function withImageFiles(value: unknown, files: Map<string, string>): unknown {
  if (typeof value === "string") {
    const base64 = value.startsWith("data:image/") ? value.slice(value.indexOf(",") + 1) : value;
    return files.has(base64) ? `[image: ${files.get(base64)}]` : value;
  }
  if (Array.isArray(value)) return value.map((each) => withImageFiles(each, files));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, withImageFiles(each, files)]));
  return value;
}

/** Replaces `directory` with the run's files; returns their paths. */
export function writeDemoOutput(directory: string, report: FoundryReport): string[] {
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  const files = new Map<string, string>();
  const written: string[] = [];
  report.screenshots.forEach((base64, index) => {
    const name = `screenshot-${String(index + 1).padStart(2, "0")}.png`;
    files.set(base64, name);
    writeFileSync(join(directory, name), Buffer.from(base64, "base64"));
    written.push(join(directory, name));
  });
  const transcript = {
    api: report.api,
    model: report.model,
    ending: report.ending,
    turns: report.turns,
    reference: report.reference ?? null,
    issuedReferences: report.issuedReferences,
    verified: report.verified,
    messages: withImageFiles(report.transcript, files),
  };
  writeFileSync(join(directory, "transcript.json"), `${JSON.stringify(transcript, null, 2)}\n`);
  written.unshift(join(directory, "transcript.json"));
  return written;
}
