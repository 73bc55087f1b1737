import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the proxy does to the next requests whose JSON body has the given method. */
export type Fault =
  /** Forward, let the worker execute, then cut the connection instead of answering. */
  | "drop-response"
  /** Cut the connection as soon as the request arrives: the worker never sees it. */
  | "reset-before-forward"
  /** Forward, let the worker execute, then hold the answer until `releaseHeld()` (or the proxy closes). */
  | "hold-response";

export interface FaultProxy {
  /** `http://127.0.0.1:<port>`: point the client here. */
  origin: string;
  /** Injects `fault` into the next `times` requests of `method`. */
  inject(method: string, fault: Fault, times?: number): void;
  /** Requests that reached the worker, by method. */
  forwarded: string[];
  /** Faults that fired, as "method fault". */
  fired: string[];
  /** Sends the held answers on (to a client that may have given up). */
  releaseHeld(): void;
  /** Points the proxy at another worker (a restarted one). */
  retarget(upstream: string): void;
  close(): Promise<void>;
}

/**
 * A small HTTP proxy on 127.0.0.1 in front of a worker that injects transport
 * faults per worker method: lost, held and reset responses.
 */
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const faults: { method: string; fault: Fault; left: number }[] = [];
  const forwarded: string[] = [];
  const fired: string[] = [];
  const held: (() => void)[] = [];
  let target = new URL(upstream);
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      let method = "";
      try {
        method = String((JSON.parse(body.toString()) as { method?: unknown }).method ?? "");
      } catch {
        // Not JSON: forwarded as is.
      }
      const rule = faults.find((candidate) => candidate.method === method && candidate.left > 0);
      if (rule) {
        rule.left--;
        fired.push(`${method} ${rule.fault}`);
      }
      if (rule?.fault === "reset-before-forward") {
        incoming.socket.destroy();
        return;
      }
      forwarded.push(method);
      const upstreamRequest = httpRequest(
        // A fresh upstream connection per request (agent: false): a pooled one can meet the worker closing it as idle
        // at the moment a request is written, which would surface here as a reset nobody injected.
        { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: { ...incoming.headers, connection: "close" }, agent: false },
        (upstreamResponse) => {
          if (rule?.fault === "drop-response") {
            upstreamResponse.resume();
            upstreamResponse.on("end", () => incoming.socket.destroy());
            return;
          }
          const answer = () => {
            if (outgoing.destroyed) return void upstreamResponse.resume();
            outgoing.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
            upstreamResponse.pipe(outgoing);
          };
          if (rule?.fault === "hold-response") held.push(answer);
          else answer();
        },
      );
      upstreamRequest.on("error", () => incoming.socket.destroy());
      upstreamRequest.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded,
    fired,
    releaseHeld() {
      for (const answer of held.splice(0)) answer();
    },
    retarget(next) {
      target = new URL(next);
    },
    inject(method, fault, times = 1) {
      faults.push({ method, fault, left: times });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
