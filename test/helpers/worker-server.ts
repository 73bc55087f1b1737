import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserWorker } from "../../src/worker/index.js";

/** An answer of the worker. */
export interface WorkerAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body (undefined when not JSON). */
  json: { data?: unknown; error?: { code: string; message: string; details?: Record<string, unknown> } } | undefined;
}

export interface WorkerServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Every response body received, for secret scans. */
  bodies: string[];
  /** POSTs `body` (JSON-encoded unless a string) to `path` with `key` as bearer token. */
  post(path: string, key: string | undefined, body: unknown, init?: { method?: string; contentType?: string }): Promise<WorkerAnswer>;
  /** Sends `body` with raw node:http and cuts the connection once `cutWhen` resolves. */
  postAndDisconnect(path: string, key: string, body: unknown, cutWhen: Promise<unknown>): Promise<void>;
  close(): Promise<void>;
}

/** Serves `worker.handleNode` on 127.0.0.1 (a real socket), on a plain server or the one given. */
export async function startWorkerServer(worker: BrowserWorker, server: Server = createServer(worker.handleNode)): Promise<WorkerServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const bodies: string[] = [];
  return {
    origin,
    bodies,
    async post(path, key, body, init = {}) {
      const headers: Record<string, string> = { "content-type": init.contentType ?? "application/json" };
      if (key !== undefined) headers.authorization = `Bearer ${key}`;
      const method = init.method ?? "POST";
      const response = await fetch(origin + path, {
        method,
        headers,
        redirect: "manual",
        ...(method === "GET" || method === "HEAD" ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      });
      const text = await response.text();
      bodies.push(text);
      let json: WorkerAnswer["json"];
      try {
        json = JSON.parse(text) as WorkerAnswer["json"];
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
    postAndDisconnect(path, key, body, cutWhen) {
      return new Promise((resolve) => {
        const outgoing = httpRequest(origin + path, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } });
        outgoing.on("error", () => resolve());
        outgoing.end(JSON.stringify(body));
        void cutWhen.then(() => {
          outgoing.destroy();
          resolve();
        });
      });
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
