/**
 * Serves login pages on 127.0.0.1 for bench/agent.ts and scores a run without
 * driving the browser itself, so both MCP servers are measured the same way:
 * every HTML page gets a small recorder script that, on each click and form
 * submit, posts the `data-fathom` role of the element and the values of the
 * `username` and `password` elements at that moment to `/__bench/record`.
 * The page's own Content-Security-Policy `<meta>` (the corpus pages carry
 * `default-src 'none'`) gets `connect-src 'self'` so that post can leave;
 * the recorder is placed before it, so it runs. Nothing else is changed.
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import path from "node:path";

/** A login page: its file name and where its HTML comes from. */
export interface LoginPage {
  file: string;
  /** Built-in pages carry their HTML; corpus pages are read from `dir`. */
  html?: string;
  dir?: string;
}

/** What the recorder saw at one click or submit. */
export interface Recorded {
  run: string;
  kind: string;
  fathom: string | null;
  user: string | null;
  pass: string | null;
}

export interface LoginServer {
  origin: string;
  /** The URL of a page for one run; the run id travels in the query. */
  url(file: string, run: string): string;
  /** Resolves true once the run records a success, false after `waitMs`. */
  waitForSuccess(run: string, expected: { user: string; pass: string }, waitMs: number): Promise<boolean>;
  close(): Promise<void>;
}

const recordPath = "/__bench/record";
const maxRecordBytes = 64 * 1024;

const recorderScript = `<script>(() => {
  const run = new URLSearchParams(location.search).get("bench-run") || "";
  const value = (role) => { const el = document.querySelector('[data-fathom="' + role + '"]'); return el && "value" in el ? el.value : null; };
  const record = (kind, target) => {
    const marked = target instanceof Element ? target.closest("[data-fathom]") : null;
    const body = JSON.stringify({ run, kind, fathom: marked ? marked.getAttribute("data-fathom") : null, user: value("username"), pass: value("password") });
    try { fetch("${recordPath}", { method: "POST", body, keepalive: true }); } catch (error) {}
  };
  document.addEventListener("click", (event) => record("click", event.target), true);
  document.addEventListener("submit", (event) => record("submit", event.submitter), true);
})();</script>`;

/** The page with the recorder first in `<head>` and `connect-src 'self'` added to a CSP `<meta>`. */
export function instrument(html: string): string {
  const withConnect = html.replace(
    /(<meta\b[^>]*http-equiv=["']?content-security-policy["']?[^>]*content=")([^"]*)"/gi,
    (_match, start: string, policy: string) => `${start}${policy.replace(/\s*;?\s*$/, "")}; connect-src 'self'"`,
  );
  const head = /<head\b[^>]*>/i.exec(withConnect);
  if (head) return withConnect.slice(0, head.index + head[0].length) + recorderScript + withConnect.slice(head.index + head[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(withConnect);
  const at = doctype ? doctype[0].length : 0;
  return withConnect.slice(0, at) + recorderScript + withConnect.slice(at);
}

async function readBody(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) {
    text += String(chunk);
    if (text.length > maxRecordBytes) throw new Error("record too large");
  }
  return text;
}

/** Serves each page at `/pages/<file>` (instrumented) and takes records; everything else is a 404. */
export async function startLoginServer(pages: readonly LoginPage[]): Promise<LoginServer> {
  const byFile = new Map(pages.map((page) => [page.file, page]));
  const records: Recorded[] = [];
  const listeners = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method === "POST" && url.pathname === recordPath) {
      readBody(request).then(
        (text) => {
          records.push(JSON.parse(text) as Recorded);
          for (const listener of listeners) listener();
          response.writeHead(204).end();
        },
        () => response.writeHead(400).end(),
      );
      return;
    }
    const page = byFile.get(/^\/pages\/([\w.-]+\.html)$/.exec(url.pathname)?.[1] ?? "");
    if (request.method !== "GET" || !page) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const html = page.html !== undefined ? Promise.resolve(page.html) : readFile(path.join(page.dir ?? ".", page.file), "utf8");
    html.then(
      (text) => response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(instrument(text)),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (file, run) => `${origin}/pages/${file}?bench-run=${run}`,
    waitForSuccess(run, expected, waitMs) {
      const ok = () =>
        records.some((entry) => entry.run === run && entry.fathom === "next" && entry.user === expected.user && entry.pass === expected.pass);
      if (ok()) return Promise.resolve(true);
      return new Promise((resolve) => {
        const done = (result: boolean) => {
          clearTimeout(timer);
          listeners.delete(listener);
          resolve(result);
        };
        const listener = () => ok() && done(true);
        const timer = setTimeout(() => done(false), waitMs);
        listeners.add(listener);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
