/**
 * docs/worker-api.md is true: every request of its walk-through is sent, in
 * order, to a real worker (real HTTP, real Chromium) and answers with the
 * status and code written under it; its tables list every method with the
 * schema's fields and kind, every error code with its status and details, and the
 * methods a draining worker still serves.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorFamily } from "../../src/errors.js";
import { WorkerErrorDetailsSchema, drainingMethods, errorStatus, readMethods, workerMethods, workerRequestSchemas } from "../../src/protocol/wire.js";
import { startWorkerStack, type WorkerStack } from "../helpers/worker-stack.js";

const token = "op-doc-".padEnd(40, "x");
const tenantKey = "tenant-doc-".padEnd(40, "k");
const doc = readFileSync(new URL("../../docs/worker-api.md", import.meta.url), "utf8");

interface DocRequest {
  line: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  code?: string;
  keep?: { path: string; name: string };
}

/** The walk-through's requests: an ```http block, then `Answer: \`status code\`` and an optional `keep`. */
function documentedRequests(): DocRequest[] {
  const pattern = /```http\n([A-Z]+) (\S+)\n((?:[A-Za-z-]+: .*\n)*)\n(.*)\n```\nAnswer: `(\d{3})(?: ([a-z_]+))?`(?:; keep `data\.([\w.]+)` as `(<[^>]+>)`)?\./g;
  return [...doc.matchAll(pattern)].map((match) => ({
    line: doc.slice(0, match.index).split("\n").length,
    method: match[1]!,
    path: match[2]!,
    headers: Object.fromEntries(
      match[3]!
        .split("\n")
        .filter(Boolean)
        .map((header) => [header.slice(0, header.indexOf(":")).toLowerCase(), header.slice(header.indexOf(":") + 1).trim()]),
    ),
    body: match[4]!,
    status: Number(match[5]),
    ...(match[6] === undefined ? {} : { code: match[6] }),
    ...(match[7] === undefined ? {} : { keep: { path: match[7], name: match[8]! } }),
  }));
}

/** The rows of the markdown table whose header row starts with `| first |`. */
function tableRows(first: string): string[][] {
  const start = doc.indexOf(`| ${first} |`);
  expect(start, `a table headed "${first}"`).toBeGreaterThanOrEqual(0);
  const lines = doc.slice(start).split("\n");
  const rows = lines.slice(2, lines.findIndex((line, index) => index > 0 && !line.startsWith("|")));
  return rows.map((row) =>
    row
      .replace(/\\\|/g, "¦")
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim()),
  );
}

let stack: WorkerStack;
beforeAll(async () => {
  stack = await startWorkerStack({ token, tenantKey, maxSessions: 4 });
});
afterAll(async () => {
  await stack?.close();
});

describe("docs/worker-api.md", () => {
  it("documents every method with the schema's fields and kind, and the draining methods", () => {
    const rows = tableRows("method");
    expect(rows.map((row) => row[0]!.replace(/`/g, ""))).toEqual(workerMethods);
    for (const [cell, fields, kind] of rows) {
      const method = cell!.replace(/`/g, "") as keyof typeof workerRequestSchemas;
      const expected = Object.keys(workerRequestSchemas[method].entries).filter((name) => name !== "method");
      // Field names written at the start of the cell or after a comma (nested fields follow a colon).
      const documented = [...fields!.replace(/\([^)]*\)/g, "").matchAll(/(?:^|, )`(\w+)\??`/g)].map((match) => match[1]);
      expect(documented, method).toEqual(expected);
      expect(kind, method).toBe(readMethods.has(method) ? "read" : "mutation");
    }
    const draining = /everything except (.*?)\./.exec(doc.replace(/\n/g, " "))![1]!;
    expect([...draining.matchAll(/`(\w+)`/g)].map((match) => match[1]).sort()).toEqual([...drainingMethods].sort());
  });

  it("lists every error code with the status the worker sends and the details its class carries", () => {
    const rows = tableRows("code");
    expect(Object.fromEntries(rows.map(([code, status]) => [code!.replace(/`/g, ""), Number(status)]))).toEqual(errorStatus);
    const documented = Object.fromEntries(rows.map(([code, , details]) => [code!.replace(/`/g, ""), [...details!.matchAll(/`(\w+)`/g)].map((match) => match[1])]));
    const declared = Object.fromEntries(Object.entries(errorFamily).map(([code, { details }]) => [code, [...details]]));
    expect(documented).toEqual({ ...declared, bad_request: [] });
    // Every detail field is explained above the table.
    const explained = doc.slice(doc.indexOf("## Error codes"), doc.indexOf("| code |"));
    for (const field of Object.keys(WorkerErrorDetailsSchema.entries)) expect(explained, field).toContain(`\`${field}\``);
  });

  it("answers every request of the walk-through as written, and the walk-through sends every method", async () => {
    const requests = documentedRequests();
    expect(requests.length).toBeGreaterThan(30);
    const values: Record<string, string> = {
      "<tenant key>": tenantKey,
      "<operator token>": token,
      "<page url>": stack.fixtures.url("/form.html"),
    };
    const fill = (text: string) => text.replace(/<[^>]+>/g, (name) => {
      expect(values[name], `a value for ${name}`).toBeDefined();
      return values[name]!;
    });
    const sent = new Set<string>();
    for (const request of requests) {
      const where = `docs/worker-api.md:${request.line} ${request.body}`;
      const body = fill(request.body);
      sent.add((JSON.parse(body) as { method: string }).method);
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, fill(value)]));
      const response = await fetch(stack.worker.origin + request.path, { method: request.method, headers, body });
      const answer = (await response.json()) as { data?: unknown; error?: { code: string; message: string } };
      expect({ status: response.status, code: answer.error?.code }, `${where} → ${JSON.stringify(answer).slice(0, 300)}`).toEqual({
        status: request.status,
        code: request.code,
      });
      if (request.keep) {
        const kept = request.keep.path.split(".").reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], answer.data);
        expect(typeof kept, `${where}: data.${request.keep.path}`).toBe("string");
        values[request.keep.name] = kept as string;
      }
    }
    expect(workerMethods.filter((method) => !sent.has(method)), "methods the walk-through never sends").toEqual([]);
    expect(stack.manager.list()).toEqual([]);
  });
});
