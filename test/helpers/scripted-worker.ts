import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

/** A request the scripted worker received. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw body text. */
  text: string;
  /** The parsed JSON body, or undefined when it was not JSON. */
  body: Record<string, unknown> | undefined;
}

/** How the worker answers one request; `destroy()` cuts the connection instead. */
export type Script = (request: ReceivedRequest, response: ServerResponse, destroy: () => void) => void;

export interface ScriptedWorker {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /** Answers the next requests with `script` (until changed). */
  answer(script: Script): void;
  close(): Promise<void>;
}

/** Sends a JSON body. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json" }).end(text);
}

/** Answers `{ data }` with 200. */
export const dataScript =
  (data: unknown): Script =>
  (_request, response) =>
    sendJson(response, 200, { data });

/** Answers each request with the next script of `scripts` (the last one repeats). */
export function inOrder(...scripts: Script[]): Script {
  let index = 0;
  return (request, response, destroy) => scripts[Math.min(index++, scripts.length - 1)]!(request, response, destroy);
}

/**
 * A small HTTP server on 127.0.0.1 that plays the worker's wire format as
 * each test scripts it, and records every request (so tests can count them).
 */
export async function startScriptedWorker(): Promise<ScriptedWorker> {
  const requests: ReceivedRequest[] = [];
  let script: Script = dataScript(null);
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: Record<string, unknown> | undefined;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = undefined;
      }
      const request = { method: incoming.method ?? "", url: incoming.url ?? "", headers: incoming.headers, text, body };
      requests.push(request);
      script(request, outgoing, () => incoming.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answer(next) {
      script = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A scripted worker for the whole file: started before its tests, closed
 * after them, and before each test its request log is cleared and its answer
 * reset to `{ "data": null }`.
 */
export function useScriptedWorker(): ScriptedWorker {
  let worker: ScriptedWorker | undefined;
  beforeAll(async () => {
    worker = await startScriptedWorker();
  });
  afterAll(() => worker?.close());
  beforeEach(() => {
    live().requests.length = 0;
    live().answer(dataScript(null));
  });
  const live = () => {
    if (!worker) throw new Error("the scripted worker is used outside its file's tests");
    return worker;
  };
  return {
    get origin() {
      return live().origin;
    },
    get requests() {
      return live().requests;
    },
    answer: (script) => live().answer(script),
    close: () => live().close(),
  };
}
