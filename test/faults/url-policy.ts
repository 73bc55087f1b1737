/**
 * URL policy bypass attempts through the whole stack (agent tools and the
 * client's own execute), and the opt-in `blockPrivateNetworks` policy.
 */
import { isStationBrowserError } from "../../src/errors.js";
import type { HeldPage } from "../helpers/holding-server.js";
import type { FaultStack } from "./stack.js";
import { runScenario, type Row } from "./table.js";

/** Pages of the policy scenarios: a redirect to javascript:, popups to data:, file: and javascript:. */
export const policyPages: Record<string, HeldPage> = {
  "/js-redirect": { status: 302, headers: { location: "javascript:document.title='pwned'" } },
  "/links": `<title>Links</title>
    <a href="/js-redirect">redirect</a>
    <button id="popups" onclick="
      window.open('data:text/html,<title>pwned</title>');
      window.open('DATA:text/html;base64,PHRpdGxlPnB3bmVkPC90aXRsZT4=');
      window.open('file:///etc/passwd');
      window.open('javascript:\\'pwned\\'');
      window.open('view-source:' + location.href);
    ">Popups</button>`,
};

/** Spellings that must never be navigated to under the default policy. */
const refusedUrls = (origin: string) => {
  const host = new URL(origin).host;
  return [
    "JAVASCRIPT:document.title='pwned'",
    "JaVaScRiPt:document.title='pwned'",
    " javascript:document.title='pwned'",
    "java\tscript:document.title='pwned'",
    "\u0000javascript:document.title='pwned'",
    "javascript\n:document.title='pwned'",
    "data:text/html,<title>pwned</title>",
    "DaTa:text/html,<title>pwned</title>",
    "file:///etc/passwd",
    "FILE:///etc/passwd",
    "view-source:" + origin + "/plain",
    "chrome://settings",
    "blob:" + origin + "/00000000-0000-0000-0000-000000000000",
    "about:config",
    `http://user:pw@${host}/plain`,
    `http://${host}@evil.test/plain`,
    `http://%75ser@${host}/plain`,
    `//${host}/plain`,
    "/plain",
  ];
};

/** Private targets in the spellings a bypass would try, for `blockPrivateNetworks`. */
export const privateTargets = (origin: string) => {
  const port = new URL(origin).port;
  return [
    `http://127.0.0.1:${port}/plain`,
    `http://0x7f.1:${port}/plain`,
    `http://2130706433:${port}/plain`,
    `http://0177.0.0.1:${port}/plain`,
    `http://127.1:${port}/plain`,
    `http://[::1]:${port}/plain`,
    `http://[::ffff:127.0.0.1]:${port}/plain`,
    `http://LOCALHOST:${port}/plain`,
    `http://\u217Cocalhost:${port}/plain`,
    `http://app.localhost:${port}/plain`,
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/",
    "http://192.168.1.1/",
    `http://rebind.test:${port}/plain`,
  ];
};

/** A fake resolver for the private-network stack: one name rebinds to loopback. */
export const fakeLookup = async (hostname: string) => (hostname === "rebind.test" ? ["93.184.215.14", "127.0.0.1"] : []);

/** The requests since `before`, without the favicon Chromium fetches on its own after a load (it may come late on a loaded machine). */
const requestsSince = (stack: FaultStack, before: number) => stack.pages.requests.slice(before).filter((request) => request !== "GET /favicon.ico");
const noRequest = (stack: FaultStack, before: number) => requestsSince(stack, before).length === 0;

export async function policyScenarios(stack: FaultStack, rows: Row[]): Promise<void> {
  await runScenario(rows, "URL policy bypass attempts", "mixed-case schemes, whitespace/control chars, credentials via @, relative URLs", async (s) => {
    const { toolset, tool } = stack.toolset(1);
    const client = stack.client();
    await tool("open").execute({ url: stack.pages.url("/plain") });
    const [info] = await client.list();
    const sessionId = info!.id;
    const passed: string[] = [];
    for (const url of refusedUrls(stack.pages.origin)) {
      const before = stack.pages.requests.length;
      s.injected(2);
      const reply = await tool("navigate").execute({ url });
      const direct = await client.execute(sessionId, { op: "navigate", url }).then(
        () => "navigated",
        (error: unknown) => (isStationBrowserError(error) && (error.code === "url_policy" || error.code === "validation") ? "refused" : String(error)),
      );
      if (reply.isError !== true || direct !== "refused" || !noRequest(stack, before)) {
        passed.push(`${JSON.stringify(url)}: tool ${reply.text.slice(0, 60)} / client ${direct} / requests ${JSON.stringify(requestsSince(stack, before))}`);
      }
    }
    s.equal("every attempt refused (tool and client), no request sent", passed, []);
    const pages = await client.execute(sessionId, { op: "pages" });
    s.equal("the page is where it was", pages.pages.map((page) => page.url), [stack.pages.url("/plain")]);
    await toolset.close();
  });

  await runScenario(rows, "javascript: redirect, data:/file:/javascript: popups", "a 302 to javascript:, five popups to non-web URLs", async (s) => {
    const client = stack.client();
    const { id } = await client.open();
    await client.execute(id, { op: "navigate", url: stack.pages.url("/links") });
    s.injected();
    await client.execute(id, { op: "click", target: { by: "text", value: "redirect" } }).catch(() => undefined);
    const title = (await client.execute(id, { op: "evaluate", expression: "document.title" })).value;
    s.check("the redirect ran no script", title !== "pwned", title);
    await client.execute(id, { op: "navigate", url: stack.pages.url("/links") });
    s.injected(5);
    await client.execute(id, { op: "click", selector: "#popups" });
    const { pages } = await client.execute(id, { op: "pages" });
    const webOnly = pages.every((page) => /^(https?:|about:blank)/.test(page.url));
    s.check("no page left on a non-web URL", webOnly, pages.map((page) => page.url));
    s.check("no page shows a popup's content", pages.every((page) => page.title !== "pwned"), pages.map((page) => page.title));
    const after = await client.execute(id, { op: "navigate", url: stack.pages.url("/plain") });
    s.equal("the session still works", after.title, "Plain");
    await client.close(id);
  });
}

export async function privateNetworkScenarios(stack: FaultStack, rows: Row[]): Promise<void> {
  await runScenario(rows, "blockPrivateNetworks", "private, loopback, link-local targets in bypass spellings; a name resolving to loopback; page fetches", async (s) => {
    const { toolset, tool } = stack.toolset(1);
    const opened = await tool("open").execute({});
    s.check("a session opens (about:blank)", opened.isError !== true, opened.text);
    const client = stack.client();
    const [info] = await client.list();
    const before = stack.pages.requests.length;
    const reached: string[] = [];
    for (const url of privateTargets(stack.pages.origin)) {
      s.injected();
      const reply = await tool("navigate").execute({ url });
      if (reply.isError !== true || !/private networks are blocked/.test(reply.text)) reached.push(`${url}: ${reply.text.slice(0, 100)}`);
    }
    s.equal("every navigation refused, naming the policy", reached, []);
    s.injected();
    const fetched = await client.execute(info!.id, {
      op: "evaluate",
      expression: `fetch(${JSON.stringify(stack.pages.url("/hit"))}, { method: "POST" }).then(() => "reached", () => "refused")`,
    });
    s.equal("a page's fetch to loopback refused", fetched.value, "refused");
    s.equal("the page server saw no request", stack.pages.requests.length - before, 0);
    await toolset.close();
  });
}
