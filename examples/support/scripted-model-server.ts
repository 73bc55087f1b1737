/** What the scripted model stand-ins share: a JSON-over-HTTP server on 127.0.0.1 and the checks of their script. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** What a stand-in answers: an HTTP status and a JSON body. */
export interface JsonAnswer {
  status: number;
  body: unknown;
}

/** A running stand-in. */
export interface JsonServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/** Serves `answer(path, body)` for every POST on 127.0.0.1 at a free port; anything else is 404. */
export async function startJsonServer(answer: (path: string, body: unknown) => JsonAnswer): Promise<JsonServer> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let result: JsonAnswer;
      try {
        const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
        result = request.method === "POST" ? answer(path, JSON.parse(Buffer.concat(chunks).toString("utf8"))) : { status: 404, body: { error: { message: "not found" } } };
      } catch (error) {
        result = { status: 400, body: { error: { type: "invalid_request_error", message: `scripted model: ${(error as Error).message}` } } };
      }
      response.writeHead(result.status, { "content-type": "application/json" }).end(JSON.stringify(result.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Thrown by a script when the request lacks what it checks; answered as a 400 the SDK raises. */
export class ScriptCheckError extends Error {
  override name = "ScriptCheckError";
}

/** The first http(s) URL in a text (the page the task names). */
export function firstUrl(text: string): string {
  const url = /https?:\/\/[^\s"'`)]+/.exec(text)?.[0];
  if (url === undefined) throw new ScriptCheckError("the task names no URL to open");
  return url;
}

/** Size in bytes of base64 data, and whether it starts like a PNG or JPEG. */
export function describeImage(base64: string): string {
  const bytes = Math.floor((base64.replace(/=+$/, "").length * 3) / 4);
  const kind = base64.startsWith("iVBORw0KGgo") ? "PNG" : base64.startsWith("/9j/") ? "JPEG" : undefined;
  if (kind === undefined) throw new ScriptCheckError("the image data is neither PNG nor JPEG");
  return `${bytes} bytes of ${kind}`;
}

/** The final answer: what reached the scripted model, in words a test can check. */
export function scriptedFinalText(pageTitle: string, imageChannel: string): string {
  return `Scripted model: the page title "${pageTitle}" reached me in the tool result, and the screenshot reached me as ${imageChannel}.`;
}
