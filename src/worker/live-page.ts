import { liveViewServing } from "../protocol/limits.js";

/**
 * The script of the live view page. It reads the view token from its own
 * address and uses it for the page's three routes: `stream` (server-sent
 * screencast frames), `frame` (a PNG, polled where no screencast is
 * available, skipping while one is in flight) and `control` (the lease and
 * the forwarded input). A point on the image maps to the page by the ratio
 * of the viewport (CSS pixels) to the image as shown, whatever its scale.
 */
const script = (pollMs: number, renewMs: number) => `
const token = new URLSearchParams(location.search).get("token") || "";
const base = location.pathname.replace(/\\/+$/, "");
const query = "?token=" + encodeURIComponent(token);
const image = document.getElementById("frame");
const button = document.getElementById("control");
const status = document.getElementById("status");
let view = null, pending = null, frames = 0, lease = null, renewTimer = 0, inputs = 0, queue = Promise.resolve();
const say = (text) => { status.textContent = text; };
const setMode = (mode) => { document.body.dataset.control = mode; button.textContent = mode === "human" ? "Release control" : "Take control"; };
image.addEventListener("load", () => { view = pending; frames++; image.dataset.frames = String(frames); });
function show(source, meta) { pending = meta; image.src = source; }
async function call(route, init) {
  const response = await fetch(base + route + query, { cache: "no-store", ...init });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error((answer.error && answer.error.message) || "HTTP " + response.status), { status: response.status });
  return answer.data;
}
let polling = false;
function poll() {
  if (polling) return;
  polling = true;
  document.body.dataset.mode = "poll";
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const frame = await call("/frame");
      const scale = frame.scale || 1;
      show("data:image/png;base64," + frame.base64, { viewportWidth: frame.width / scale, viewportHeight: frame.height / scale });
    } catch (error) {
      say(error.message);
      if (error.status === 401 || error.status === 403 || error.status === 404) clearInterval(timer);
    } finally {
      busy = false;
    }
  }, ${pollMs});
}
function stream() {
  const events = new EventSource(base + "/stream" + query);
  let received = false;
  document.body.dataset.mode = "stream";
  events.addEventListener("frame", (event) => {
    received = true;
    const frame = JSON.parse(event.data);
    show("data:image/jpeg;base64," + frame.base64, frame);
  });
  events.addEventListener("fallback", () => { events.close(); poll(); });
  events.addEventListener("end", (event) => { events.close(); dropLease(); say("The live view ended: " + JSON.parse(event.data).reason); });
  events.addEventListener("error", () => { if (events.readyState === EventSource.CLOSED && !received) poll(); });
}
function dropLease() { lease = null; clearInterval(renewTimer); setMode("automation"); }
async function control(body) { return call("/control", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }); }
async function takeControl() {
  try {
    const grant = await control({ action: "acquire" });
    lease = grant.token;
    setMode("human");
    say("You have control until you release it or leave this page");
    renewTimer = setInterval(() => { if (lease) control({ action: "renew", controlToken: lease }).catch((error) => { dropLease(); say(error.message); }); }, ${renewMs});
  } catch (error) { say(error.message); }
}
async function release() {
  const held = lease;
  dropLease();
  if (held) await control({ action: "release", controlToken: held }).then(() => say("Control handed back"), (error) => say(error.message));
}
button.addEventListener("click", () => { button.blur(); void (lease ? release() : takeControl()); });
addEventListener("pagehide", () => {
  if (lease) navigator.sendBeacon(base + "/control" + query, new Blob([JSON.stringify({ action: "release", controlToken: lease })], { type: "text/plain" }));
});
function send(input) {
  const held = lease;
  if (!held) return;
  queue = queue.then(() => control({ action: "input", controlToken: held, input })).then(
    () => { inputs++; document.body.dataset.inputs = String(inputs); },
    (error) => say(error.message),
  );
}
function pagePoint(event) {
  const box = image.getBoundingClientRect();
  const x = ((event.clientX - box.left) / box.width) * view.viewportWidth;
  const y = ((event.clientY - box.top) / box.height) * view.viewportHeight;
  return { x: Math.max(0, Math.round(x * 10) / 10), y: Math.max(0, Math.round(y * 10) / 10) };
}
image.addEventListener("click", (event) => { if (lease && view) send({ op: "mouseClick", ...pagePoint(event) }); });
image.addEventListener("contextmenu", (event) => { if (!lease || !view) return; event.preventDefault(); send({ op: "mouseClick", ...pagePoint(event), button: "right" }); });
let wheel = null;
image.addEventListener("wheel", (event) => {
  if (!lease || !view) return;
  event.preventDefault();
  const first = wheel === null;
  wheel = wheel || { ...pagePoint(event), deltaX: 0, deltaY: 0 };
  wheel.deltaX += event.deltaX;
  wheel.deltaY += event.deltaY;
  if (!first) return;
  requestAnimationFrame(() => {
    const { x, y, deltaX, deltaY } = wheel;
    wheel = null;
    send({ op: "mouseMove", x, y });
    send({ op: "scroll", deltaX: Math.round(deltaX), deltaY: Math.round(deltaY) });
  });
}, { passive: false });
const modifiers = new Set(["Shift", "Control", "Alt", "Meta", "CapsLock"]);
document.addEventListener("keydown", (event) => {
  if (!lease || modifiers.has(event.key) || event.isComposing) return;
  event.preventDefault();
  let key = event.key === " " ? "Space" : event.key;
  if (event.shiftKey && key.length > 1) key = "Shift+" + key;
  if (event.altKey) key = "Alt+" + key;
  if (event.ctrlKey) key = "Control+" + key;
  if (event.metaKey) key = "Meta+" + key;
  send({ op: "press", key });
});
setMode("automation");
stream();
`;

const style = `
body { margin: 0; font: 14px system-ui, sans-serif; background: #1d1f21; color: #eee; }
header { display: flex; gap: 12px; align-items: center; padding: 8px 12px; }
button { font: inherit; padding: 4px 12px; }
#frame { display: block; max-width: 100%; height: auto; margin: 0 auto; background: #000; }
body[data-control="human"] #frame { outline: 3px solid #e5a00d; cursor: crosshair; }
`;

/**
 * The live view page: self-contained (no external assets), its script and
 * style allowed by a per-answer nonce. The view token is not in it: the
 * script reads it from the page's address.
 */
export function livePage(sessionId: string, nonce: string): string {
  const title = `Live view: session ${sessionId}`.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style nonce="${nonce}">${style}</style></head>
<body><header><button id="control" type="button">Take control</button><span id="status" role="status"></span></header>
<img id="frame" alt="The browser's page, live" draggable="false">
<script nonce="${nonce}">${script(liveViewServing.pollIntervalMs, Math.floor(liveViewServing.controlTtlMs / 3))}</script></body></html>`;
}
