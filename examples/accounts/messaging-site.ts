/**
 * The stand-in messaging site, generated at run time and served on
 * 127.0.0.1. It behaves the way WhatsApp Web and its kind do:
 *
 * - `/` without a linked device shows a QR code to scan; linking happens only
 *   when someone acts on the page ("Link this browser", which stands in for
 *   the phone scanning the code);
 * - linking sets a long-lived session cookie (HttpOnly) and the page keeps
 *   its device id in localStorage: both must be there for `/` to show the
 *   chat, so the account stays linked across browser restarts; "Log out"
 *   unlinks it (the server forgets the device, the page clears its storage);
 * - sending shows "typing…", then the message;
 * - more than {@link MessagingSiteOptions.sendLimit} sends in
 *   {@link MessagingSiteOptions.windowMs} are refused (429) for
 *   {@link MessagingSiteOptions.refuseMs}, and the page shows the banner
 *   "You're sending too many messages";
 * - an upload form: "Upload" posts the chosen File as the body of a fetch
 *   (the browser streams it from disk) and keeps it unpublished; "Publish"
 *   publishes the uploaded file. Two separate buttons. The server counts and
 *   hashes the body as it streams in (never holding it) and refuses one past
 *   {@link MessagingSiteOptions.mediaMaxBytes} (413); the page shows how it
 *   went in `#media-status` (`data-state` uploading, uploaded, published or failed).
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface MessagingSiteOptions {
  /** Sends allowed in one window. Default 2. */
  sendLimit?: number;
  /** The sliding window the limit counts (ms). Default 3000. */
  windowMs?: number;
  /** How long sends are refused once the limit was passed (ms). Default 60 000. */
  refuseMs?: number;
  /** How long "typing…" shows before a sent message appears (ms). Default 150. */
  typingMs?: number;
  /** Largest media upload the site takes (bytes); past it the upload is refused (413). Default 64 MiB. */
  mediaMaxBytes?: number;
}

/** One linked device: what the session cookie names. */
export interface LinkedDevice {
  deviceId: string;
  /** Messages the site accepted from this device, in order. */
  accepted: string[];
  /** Sends refused by the throttle. */
  refused: number;
  /** Refusing sends until then (epoch ms), or 0. */
  throttledUntil: number;
  /** Media uploads received in full: the bytes counted and hashed as they streamed in (never held). */
  uploads: Array<{ uploadId: string; name: string; type: string; bytes: number; sha256: string; published: boolean }>;
}

/** What the site saw of one request to `/`: the device its cookie named, if any. */
export interface Visit {
  at: number;
  deviceId?: string;
}

export interface MessagingSite {
  url: string;
  /** Devices by id, linked or logged out. */
  devices: Map<string, LinkedDevice & { linked: boolean }>;
  /** Every request to `/`, in order. */
  visits: Visit[];
  /** Resolves with the next device linked. */
  nextLink(): Promise<string>;
  close(): Promise<void>;
}

const style = `<style>body{font:16px system-ui,sans-serif;margin:0}main{margin:24px;max-width:720px}#throttle{background:#fde68a;padding:12px 24px}
button{font-size:18px;padding:10px 18px;margin:4px}#qr{display:grid;grid-template-columns:repeat(21,10px);gap:0;margin:16px 0}#qr i{width:10px;height:10px}
#typing{color:#666;font-style:italic}</style>`;

/** A QR-like grid drawn from `code` (decoration: linking is the button). */
function qrGrid(code: string): string {
  const bits = [...randomBytes(56)].flatMap((byte) => [...Array(8).keys()].map((bit) => (byte >> bit) & 1));
  return bits.slice(0, 441).map((bit) => `<i style="background:${bit ? "#000" : "#fff"}"></i>`).join("") + `<!-- ${code} -->`;
}

function loginPage(): string {
  const code = randomBytes(8).toString("hex");
  return `<!doctype html><html lang="en"><title>Messenger</title>${style}<main>
<h1>Link this browser</h1>
<p>Scan the QR code with the Messenger app on your phone to log in.</p>
<div id="qr" role="img" aria-label="QR code">${qrGrid(code)}</div>
<p><button id="link" data-code="${code}">Link this browser</button></p>
</main><script>
document.getElementById("link").addEventListener("click", async (event) => {
  const answer = await fetch("/api/link", { method: "POST", body: JSON.stringify({ code: event.target.dataset.code }) });
  const { deviceId } = await answer.json();
  localStorage.setItem("device", deviceId);
  location.replace("/");
});
</script>`;
}

function chatPage(deviceId: string, typingMs: number): string {
  return `<!doctype html><html lang="en"><title>Messenger</title>${style}
<div id="banner"></div><main>
<h1>Chats</h1>
<ul id="log"></ul><p id="typing" hidden>typing…</p>
<form id="composer"><input id="message" aria-label="Message" autocomplete="off"> <button id="send">Send</button></form>
<h2>Post media</h2>
<form id="media-form"><input type="file" id="media" aria-label="Media file"> <button type="button" id="upload">Upload</button> <button type="button" id="publish" disabled>Publish</button></form>
<p id="media-status"></p>
<p><button id="logout" type="button">Log out</button></p>
</main><script>
// The cookie alone is not enough: this browser's storage must hold the device too (as WhatsApp Web keeps its keys).
if (localStorage.getItem("device") !== ${JSON.stringify(deviceId)}) document.querySelector("main").innerHTML = '<p id="unlinked">This browser is not linked. <a href="/api/unlink">Link it again</a>.</p>';
const log = document.getElementById("log"), typing = document.getElementById("typing");
document.getElementById("composer").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = document.getElementById("message").value;
  typing.hidden = false;
  const answer = await fetch("/api/send", { method: "POST", body: JSON.stringify({ text }) });
  if (answer.status === 429) {
    typing.hidden = true;
    document.getElementById("banner").innerHTML = '<div id="throttle" role="alert">You\\u2019re sending too many messages. Wait a while before you try again.</div>';
    return;
  }
  setTimeout(() => {
    typing.hidden = true;
    const item = document.createElement("li");
    item.className = "msg";
    item.dataset.n = String(log.children.length + 1);
    item.textContent = text;
    log.append(item);
    document.getElementById("message").value = "";
  }, ${typingMs});
});
let uploadId;
const mediaStatus = (state, text) => Object.assign(document.getElementById("media-status"), { textContent: text }).dataset.state = state;
document.getElementById("upload").addEventListener("click", async () => {
  const file = document.getElementById("media").files[0];
  if (!file) return mediaStatus("failed", "Choose a file first.");
  mediaStatus("uploading", "Uploading " + file.name + "…");
  // The File itself as the body: the browser streams it from disk (no FileReader, nothing held in the page).
  const answer = await fetch("/api/media?name=" + encodeURIComponent(file.name), { method: "POST", body: file }).catch(() => undefined);
  if (!answer?.ok) return mediaStatus("failed", "Upload failed (" + (answer ? "HTTP " + answer.status : "network error") + ").");
  ({ uploadId } = await answer.json());
  mediaStatus("uploaded", "Uploaded " + file.name + " (" + file.size + " bytes), not published yet.");
  document.getElementById("publish").disabled = false;
});
document.getElementById("publish").addEventListener("click", async () => {
  const answer = await fetch("/api/publish", { method: "POST", body: JSON.stringify({ uploadId }) }).catch(() => undefined);
  if (!answer?.ok) return mediaStatus("failed", "Publishing failed (" + (answer ? "HTTP " + answer.status : "network error") + ").");
  mediaStatus("published", "Published.");
});
document.getElementById("logout").addEventListener("click", async () => {
  await fetch("/api/logout", { method: "POST" });
  localStorage.removeItem("device");
  location.replace("/");
});
</script>`;
}

const cookieName = "msg_session";

/** Starts the site on 127.0.0.1 (a free port). */
export async function startMessagingSite(options: MessagingSiteOptions = {}): Promise<MessagingSite> {
  const sendLimit = options.sendLimit ?? 2;
  const windowMs = options.windowMs ?? 3000;
  const refuseMs = options.refuseMs ?? 60_000;
  const typingMs = options.typingMs ?? 150;
  const mediaMaxBytes = options.mediaMaxBytes ?? 64 * 1024 * 1024;
  const devices = new Map<string, LinkedDevice & { linked: boolean; sendTimes: number[] }>();
  const sessions = new Map<string, string>(); // cookie value → device id
  const visits: Visit[] = [];
  let linkWaiters: Array<(deviceId: string) => void> = [];

  const deviceOf = (request: IncomingMessage) => {
    const cookie = /(?:^|;\s*)msg_session=([0-9a-f]+)/.exec(request.headers.cookie ?? "")?.[1];
    const deviceId = cookie === undefined ? undefined : sessions.get(cookie);
    const device = deviceId === undefined ? undefined : devices.get(deviceId);
    return device?.linked ? device : undefined;
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(JSON.stringify(value));
    };
    const device = deviceOf(request);
    if (request.method === "GET" && url.pathname === "/") {
      visits.push({ at: Date.now(), ...(device ? { deviceId: device.deviceId } : {}) });
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      response.end(device ? chatPage(device.deviceId, typingMs) : loginPage());
      return;
    }
    if (request.method === "POST" && url.pathname === "/api/link") {
      const deviceId = `device-${randomBytes(4).toString("hex")}`;
      const cookie = randomBytes(16).toString("hex");
      devices.set(deviceId, { deviceId, linked: true, accepted: [], refused: 0, throttledUntil: 0, uploads: [], sendTimes: [] });
      sessions.set(cookie, deviceId);
      const waiters = linkWaiters;
      linkWaiters = [];
      for (const wake of waiters) wake(deviceId);
      // A persistent cookie: a session cookie (no Max-Age) would not outlive the browser.
      json(200, { deviceId }, { "set-cookie": `${cookieName}=${cookie}; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000` });
      return;
    }
    if (request.method === "GET" && url.pathname === "/api/unlink") {
      response.writeHead(302, { location: "/", "set-cookie": `${cookieName}=; Path=/; Max-Age=0` });
      response.end();
      return;
    }
    if (!device) return json(401, { error: "not linked" });
    if (request.method === "POST" && url.pathname === "/api/logout") {
      device.linked = false;
      return json(200, { ok: true }, { "set-cookie": `${cookieName}=; Path=/; Max-Age=0` });
    }
    if (request.method === "POST" && url.pathname === "/api/send") {
      const now = Date.now();
      if (now < device.throttledUntil) return device.refused++, json(429, { error: "too many messages" }, { "retry-after": String(Math.ceil((device.throttledUntil - now) / 1000)) });
      device.sendTimes = device.sendTimes.filter((at) => at > now - windowMs);
      if (device.sendTimes.length >= sendLimit) {
        device.throttledUntil = now + refuseMs;
        device.refused++;
        return json(429, { error: "too many messages" }, { "retry-after": String(Math.ceil(refuseMs / 1000)) });
      }
      device.sendTimes.push(now);
      const { text } = JSON.parse((await readBody(request)).toString("utf8") || "{}") as { text?: string };
      device.accepted.push(String(text ?? ""));
      return json(200, { n: device.accepted.length });
    }
    if (request.method === "POST" && url.pathname === "/api/media") {
      const received = await receiveMedia(request, mediaMaxBytes);
      if (!received) return json(413, { error: `larger than ${mediaMaxBytes} bytes` }, { connection: "close" });
      const uploadId = `upload-${device.uploads.length + 1}`;
      const type = request.headers["content-type"] ?? "";
      device.uploads.push({ uploadId, name: url.searchParams.get("name") ?? "", type, ...received, published: false });
      return json(200, { uploadId });
    }
    if (request.method === "POST" && url.pathname === "/api/publish") {
      const { uploadId } = JSON.parse((await readBody(request)).toString("utf8") || "{}") as { uploadId?: string };
      const upload = device.uploads.find((each) => each.uploadId === uploadId);
      if (!upload) return json(404, { error: "no such upload" });
      upload.published = true;
      return json(200, { ok: true });
    }
    json(404, { error: "not found" });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    devices,
    visits,
    nextLink: () => new Promise((resolve) => linkWaiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A small JSON request body, at most 64 KiB. */
async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error("body too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * A media body as it streams in: counted and hashed, never held. Undefined
 * once it passes `maxBytes` (the rest is not read: the answer closes the connection).
 */
async function receiveMedia(request: IncomingMessage, maxBytes: number): Promise<{ bytes: number; sha256: string } | undefined> {
  const hash = createHash("sha256");
  let bytes = 0;
  // Leaving the loop early must not destroy the request: the 413 still goes out on its socket.
  for await (const chunk of request.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > maxBytes) return undefined;
    hash.update(chunk);
  }
  return { bytes, sha256: hash.digest("hex") };
}
