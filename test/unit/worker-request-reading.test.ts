import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { IncomingCall } from "../../src/worker/incoming.js";
import { callFromNode } from "../../src/worker/node-http.js";
import { matchRoute, routeMatcher } from "../../src/worker/routes.js";

describe("routeMatcher", () => {
  it("matches both routes of its station as clients send them, and every spelling matchRoute accepts", () => {
    const match = routeMatcher("lab 1");
    expect(match("/api/v1/tenant/stations/lab%201/execution/browser")).toBe("tenant");
    expect(match("/api/v1/stations/lab%201/execution/browser")).toBe("operator");
    // Another encoding of the same id goes through the general matcher.
    expect(match("/api/v1/stations/%6Cab%201/execution/browser")).toBe("operator");
    expect(matchRoute("/api/v1/stations/%6Cab%201/execution/browser", "lab 1")).toBe("operator");
  });

  it("refuses another station, a longer or shorter path and a broken encoding", () => {
    const match = routeMatcher("local");
    expect(match("/api/v1/stations/other/execution/browser")).toBeUndefined();
    expect(match("/api/v1/stations/local/execution/browser/")).toBeUndefined();
    expect(match("/api/v1/stations/local/execution")).toBeUndefined();
    expect(match("/api/v1/stations/%E0%A4%A/execution/browser")).toBeUndefined();
  });
});

describe("callFromNode", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  /**
   * Sends `raw` as the request bytes (and `later`, once the worker has the
   * request's head) and returns the call the worker would read, with its body.
   */
  async function readRaw(raw: string, later?: string, limit = 1024): Promise<{ call: IncomingCall; body: string; listenedFor: string[]; ended: Promise<void> }> {
    let arrived!: () => void;
    const headSeen = new Promise<void>((resolve) => (arrived = resolve));
    const seen = new Promise<{ call: IncomingCall; body: string; listenedFor: string[]; ended: Promise<void> }>((resolve, reject) => {
      server = createServer((request, response) => {
        // Whether the request stream reaches its end, as Node's server expects of a request read in full.
        const ended = new Promise<void>((resolveEnd) => request.once("end", () => resolveEnd()));
        // The events the reading subscribes to on the request (from here on).
        const listenedFor: string[] = [];
        const on = request.on.bind(request);
        request.on = ((event: string, listener: (...args: unknown[]) => void) => (listenedFor.push(event), on(event, listener))) as typeof request.on;
        const call = callFromNode(request, response);
        arrived();
        call
          .readBody(limit)
          .then((read) => {
            resolve({ call, body: read.ok ? new TextDecoder().decode(read.bytes) : `(not read: ${read.reason}, at least ${read.receivedAtLeast})`, listenedFor, ended });
            response.end();
          })
          .catch(reject);
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const socket = connect((server!.address() as AddressInfo).port, "127.0.0.1");
    socket.on("error", () => undefined);
    if (later === undefined) socket.end(raw);
    else {
      socket.write(raw);
      await headSeen;
      socket.end(later);
    }
    return seen;
  }

  const head = (length: number) =>
    ["POST /api/v1/stations/local/execution/browser HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json", `Content-Length: ${length}`, "Connection: close", "", ""].join("\r\n");

  it("reads a body that comes after the head, and one that came with it", async () => {
    const body = '{"method":"list","pad":"' + "x".repeat(200) + '"}';
    expect((await readRaw(head(body.length), body)).body).toBe(body);
    await new Promise((resolve) => server?.close(resolve));
    expect((await readRaw(head(body.length) + body)).body).toBe(body);
  });

  it("takes a body that came with its head in one read, listening for no data events; one that comes later through them", async () => {
    const body = '{"method":"list","pad":"' + "x".repeat(200) + '"}';
    const together = await readRaw(head(body.length) + body);
    expect({ body: together.body, listenedFor: together.listenedFor.filter((event) => event === "data" || event === "end") }).toEqual({ body, listenedFor: [] });
    // The stream still ends (Node's server lets go of a request once it has).
    await together.ended;
    await new Promise((resolve) => server?.close(resolve));
    const apart = await readRaw(head(body.length), body);
    expect({ body: apart.body, listensForData: apart.listenedFor.includes("data") }).toEqual({ body, listensForData: true });
  });

  it("stops at the limit whether the body came with the head or after it", async () => {
    const body = "y".repeat(600);
    expect((await readRaw(head(body.length) + body, undefined, 512)).body).toMatch(/^\(not read: too_large, at least \d+\)$/);
    await new Promise((resolve) => server?.close(resolve));
    expect((await readRaw(head(body.length), body, 512)).body).toMatch(/^\(not read: too_large, at least \d+\)$/);
  });

  it("reads headers by lower-case name, whatever their case, the first of a repeated one, and the path without its query", async () => {
    const body = '{"method":"list"}';
    const { call, body: read } = await readRaw(
      [
        "POST /api/v1/stations/local/execution/browser?x=1 HTTP/1.1",
        "Host: 127.0.0.1",
        "AUTHORIZATION: Bearer first",
        "authorization: Bearer second",
        "Content-Type: application/json",
        `Content-Length: ${body.length}`,
        "Connection: close",
        "",
        body,
      ].join("\r\n"),
    );
    expect(call.method).toBe("POST");
    expect(call.pathname).toBe("/api/v1/stations/local/execution/browser");
    expect(call.header("authorization")).toBe("Bearer first");
    expect(call.header("content-type")).toBe("application/json");
    expect(call.header("content-length")).toBe(String(body.length));
    expect(call.header("x-missing")).toBeUndefined();
    expect(read).toBe(body);
    expect(call.signal.aborted).toBe(false);
  });
});
