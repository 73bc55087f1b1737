/**
 * Stand-ins for the hosted providers' download APIs at their wire format
 * (msw), serving the files the real local Chromium saved (Node side):
 * Browserbase `GET /v1/sessions/{id}/downloads` answers a zip of the
 * session's download folder, each name with a timestamp added as
 * Browserbase stores it (`report.txt` → `report-1719265797164.txt`); Steel
 * `GET` / `DELETE /v1/sessions/{id}/files/{path}` serve and delete a file
 * under the session's files folder. Every request is recorded.
 */
import { readFile, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { http, HttpResponse } from "msw";
import { zip } from "./zip.js";

export interface DownloadRequest {
  method: string;
  path: string;
  apiKey: string | null;
  accept: string | null;
}

function record(requests: DownloadRequest[], request: Request, keyHeader: string): void {
  requests.push({ method: request.method, path: new URL(request.url).pathname, apiKey: request.headers.get(keyHeader), accept: request.headers.get("accept") });
}

/** Held answers: each request waits until released or until its caller gives up (then `abandoned` counts it). */
export interface Hold {
  on: boolean;
  abandoned: number;
  /** Resolves when a held request arrives. */
  arrived(): Promise<void>;
}

export function createHold(): Hold & { reached(): void } {
  let waiters: Array<() => void> = [];
  return {
    on: false,
    abandoned: 0,
    arrived: () => new Promise<void>((resolve) => waiters.push(resolve)),
    reached() {
      for (const resolve of waiters) resolve();
      waiters = [];
    },
  };
}

async function held(hold: (Hold & { reached(): void }) | undefined, request: Request): Promise<Response | undefined> {
  if (!hold?.on) return undefined;
  hold.reached();
  await new Promise<void>((resolve) => request.signal.addEventListener("abort", () => resolve(), { once: true }));
  hold.abandoned++;
  return HttpResponse.error();
}

/**
 * Browserbase's session downloads. `folder` is where the browser saved them;
 * while `synced` is false the zip leaves them out (Browserbase has not stored
 * them yet). `apiKey` is the only key it accepts.
 */
export function browserbaseDownloadsStandIn(options: {
  base: string;
  apiKey: string;
  folder: () => string;
  requests: DownloadRequest[];
  synced: { value: boolean };
  hold?: Hold & { reached(): void };
}) {
  return http.get(`${options.base}/v1/sessions/:id/downloads`, async ({ request }) => {
    record(options.requests, request, "x-bb-api-key");
    if (request.headers.get("x-bb-api-key") !== options.apiKey) return HttpResponse.json({ statusCode: 401, error: "Unauthorized", message: "Invalid API key" }, { status: 401 });
    const waited = await held(options.hold, request);
    if (waited) return waited;
    const names = options.synced.value ? await readdir(options.folder()).catch(() => [] as string[]) : [];
    const files = [];
    for (const name of names) {
      const path = join(options.folder(), name);
      const dot = name.lastIndexOf(".");
      const stamp = Math.trunc((await stat(path)).mtimeMs);
      files.push({ name: dot > 0 ? `${name.slice(0, dot)}-${stamp}${name.slice(dot)}` : `${name}-${stamp}`, bytes: new Uint8Array(await readFile(path)) });
    }
    return new HttpResponse(zip(files), { headers: { "content-type": "application/zip" } });
  });
}

/** Steel's session files: `folder` is the files folder the session's browser saves into. */
export function steelFilesDownloadStandIn(options: { base: string; folder: string; requests: DownloadRequest[]; hold?: Hold & { reached(): void } }) {
  const fileOf = (request: Request, id: string) => {
    const prefix = `/v1/sessions/${id}/files/`;
    return join(options.folder, decodeURIComponent(new URL(request.url).pathname.slice(prefix.length)));
  };
  return [
    http.get(`${options.base}/v1/sessions/:id/files/*`, async ({ request, params }) => {
      record(options.requests, request, "steel-api-key");
      const waited = await held(options.hold, request);
      if (waited) return waited;
      const bytes = await readFile(fileOf(request, String(params["id"]))).catch(() => undefined);
      if (!bytes) return HttpResponse.json({ success: false, message: "File not found" }, { status: 404 });
      return new HttpResponse(new Uint8Array(bytes), { headers: { "content-type": "application/octet-stream", "content-length": String(bytes.length) } });
    }),
    http.delete(`${options.base}/v1/sessions/:id/files/*`, async ({ request, params }) => {
      record(options.requests, request, "steel-api-key");
      await rm(fileOf(request, String(params["id"])), { force: true });
      return new HttpResponse(null, { status: 204 });
    }),
  ];
}
