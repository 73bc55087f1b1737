/**
 * Agent-tools benchmark: a scripted login over the login pages of the corpus
 * (`../shared/corpus/pages`, MANIFEST.tsv), driven two ways in one run on
 * real Chromium with pages served on 127.0.0.1 (nothing reaches the internet):
 *
 * - ours: `createBrowserAgentTools` over an in-process `BrowserSessionManager`:
 *   open (with the URL), observe, fill username and password in one call,
 *   click submit (or press Enter) — refs taken only from the observe result;
 * - Playwright MCP's way: navigate, then `page.ariaSnapshot({ mode: "ai" })`
 *   after every action (navigate, fill form, click), acting by its refs.
 *
 * Both use the same policy, which picks fields by accessible role and name
 * (placeholder as a fallback), never by `data-fathom`. Scoring reads the
 * `data-fathom` ground truth: a run succeeds when the element clicked (or the
 * form's submitter) is `data-fathom="next"` and, at that moment, the
 * `username` and `password` elements hold the values typed.
 *
 * Bytes are the UTF-8 text returned to the model: every tool result for ours;
 * every snapshot plus its URL and title lines for Playwright's way (its other
 * response text is not counted, which favours the baseline).
 *
 * Run: `npx tsx bench/agent.ts` (`npm run bench:agent`).
 * Environment: `STATION_CORPUS_DIR`, `CHROMIUM_PATH` (as bench/observe.ts).
 */
import type { AddressInfo } from "node:net";
import { chromium, type Page } from "playwright-core";
import { createBrowserAgentTools, type AgentTool, type BrowserAgentTools } from "../src/agent-tools/index.js";
import { BrowserSessionManager } from "../src/lifecycle/manager.js";
import { PlaywrightBrowserAdapter, closedNetworkArgs, findChromium } from "../src/playwright.js";
import { corpusDir, corpusPresent, createCorpusProvider, readCorpusManifest, startCorpusServer, type CorpusProvider } from "./corpus.js";

const pageTimeoutMs = 60_000;
const actionTimeoutMs = 5_000;
/** Time for a click's page events to reach the recorder before scoring. */
const eventSettleMs = 300;
const username = "bench.user@example.test";
const password = "Bench-Pass-2718!";

/** One run of the scripted login. */
interface Run {
  calls: number;
  bytes: number;
  success: boolean;
  note: string;
}

interface PageRow {
  file: string;
  ours: Run;
  playwright: Run;
}

// Policy: shared by both ways, on either snapshot format.

interface Control {
  role: string;
  name: string;
  placeholder: string;
  /** Static text right before the element (the only label of an unlabelled field). */
  context: string;
  ref: string;
}

const refPattern = /\[ref=([a-z0-9]+)\]/;
const interactiveRoles = new Set(["textbox", "searchbox", "combobox", "button", "link", "checkbox", "radio", "menuitem", "tab", "switch"]);
const passwordWords = /pass|pwd|passwort|contraseña|mot de passe|senha|пароль|密码|パスワード|\bpin\b/i;
const usernameWords = /user|e-?mail|login|account|phone|mobile|name|\bid\b|identifi/i;
const submitWords =
  /sign ?in|log ?in|login|log on|submit|continue|next|enter|^go$|anmelden|einloggen|connexion|se connecter|entrar|iniciar|accedi|войти|登录|ログイン/i;
const notSubmit = /forgot|reset|show|hide|google|facebook|apple|twitter|microsoft|create|register|sign ?up|join|help/i;

const unquote = (text: string) => text.replace(/^"(.*)"$/, "$1").trim();

/**
 * Every element line with a ref, in order, from the agent form
 * (`textbox "Email" placeholder="…" [ref=e4]`, bare `"text"` lines) or
 * Playwright's YAML (`- textbox "Email" [ref=e5]`, `- /placeholder: …`,
 * `- button [ref=e7]: Sign in`, `- generic [ref=e9]: Password`).
 */
function readControls(snapshot: string): Control[] {
  const controls: Control[] = [];
  let text = "";
  for (const line of snapshot.split("\n")) {
    const yamlPlaceholder = /^\s*- \/placeholder: (.*)$/.exec(line);
    if (yamlPlaceholder) {
      if (controls.length) controls[controls.length - 1]!.placeholder = unquote(yamlPlaceholder[1]!);
      continue;
    }
    const bareText = /^\s*(?:- text: (.*)|("(?:[^"\\]|\\.)*"))\s*$/.exec(line);
    if (bareText) {
      text = unquote(bareText[1] ?? bareText[2] ?? "");
      continue;
    }
    const head = /^\s*(?:- )?(?:h[1-6] )?([a-z]+)(?: "((?:[^"\\]|\\.)*)")?/.exec(line);
    if (!head) continue;
    const trailing = unquote(/\]: (.+)$/.exec(line)?.[1] ?? "");
    const name = head[2] ?? trailing;
    const ref = refPattern.exec(line)?.[1];
    if (!ref || !interactiveRoles.has(head[1]!)) {
      if (name) text = name;
      continue;
    }
    const placeholder = /placeholder="((?:[^"\\]|\\.)*)"/.exec(line)?.[1] ?? "";
    controls.push({ role: head[1]!, name, placeholder, context: text, ref });
    // A field takes the text before it as its label; links and buttons in between do not.
    if (head[1] === "textbox" || head[1] === "searchbox" || head[1] === "combobox") text = "";
  }
  return controls;
}

interface Plan {
  username: string;
  password: string;
  /** The submit control, or undefined to press Enter in the password field. */
  submit: string | undefined;
}

/** Picks the fields by role and name. */
function plan(snapshot: string): Plan | string {
  const controls = readControls(snapshot);
  const label = (control: Control) => control.name || control.placeholder || control.context;
  const passwordIndex = controls.findIndex((control) => control.role === "textbox" && passwordWords.test(label(control)) && !/forgot|reset/i.test(label(control)));
  if (passwordIndex < 0) return "no password field found";
  const before = controls.slice(0, passwordIndex).filter((control) => control.role === "textbox");
  const user = [...before].reverse().find((control) => usernameWords.test(label(control))) ?? before[before.length - 1];
  if (!user) return "no username field found";
  const after = controls.slice(passwordIndex + 1).filter((control) => control.role === "button" && !notSubmit.test(control.name));
  const submit = after.find((control) => submitWords.test(control.name)) ?? after[0];
  return { username: user.ref, password: controls[passwordIndex]!.ref, submit: submit?.ref };
}

// Scoring: the only place data-fathom is read.

interface Recorded {
  kind: string;
  fathom: string | null;
  user: string | null;
  pass: string | null;
}

/** Records clicks and submits with the ground-truth values at that moment. */
async function installRecorder(page: Page): Promise<Recorded[]> {
  const recorded: Recorded[] = [];
  await page.exposeBinding("__benchRecord", (_source, entry: Recorded) => void recorded.push(entry));
  // A string, not a function: the bundler's helpers do not exist in the page.
  await page.evaluate(`(() => {
    const value = (role) => document.querySelector('[data-fathom="' + role + '"]')?.value ?? null;
    const record = (kind, target) => window.__benchRecord({
      kind,
      fathom: (target instanceof Element ? target.closest("[data-fathom]")?.getAttribute("data-fathom") : null) ?? null,
      user: value("username"),
      pass: value("password"),
    });
    document.addEventListener("click", (event) => record("click", event.target), true);
    document.addEventListener("submit", (event) => record("submit", event.submitter), true);
  })()`);
  return recorded;
}

const succeeded = (recorded: readonly Recorded[]) =>
  recorded.some((entry) => entry.fathom === "next" && entry.user === username && entry.pass === password);

const settle = () => new Promise((resolve) => setTimeout(resolve, eventSettleMs));
const utf8 = (text: string) => new TextEncoder().encode(text).length;

// Ours: the agent tools.

async function runOurs(toolset: BrowserAgentTools, provider: CorpusProvider, created: string[], url: string): Promise<Run> {
  const tools = Object.fromEntries(toolset.tools.map((tool) => [tool.name.replace("station_browser_", ""), tool])) as Record<string, AgentTool>;
  const run: Run = { calls: 0, bytes: 0, success: false, note: "" };
  const call = async (name: string, input: unknown) => {
    const result = await tools[name]!.execute(input);
    run.calls++;
    run.bytes += utf8(result.text);
    return result;
  };
  try {
    const opened = await call("open", { url });
    if (opened.isError) return { ...run, note: `open failed: ${opened.text.split("\n")[0]}` };
    const page = provider.page(created[created.length - 1]!);
    page.setDefaultTimeout(actionTimeoutMs);
    const recorded = await installRecorder(page);
    const observed = await call("observe", {});
    let picked = plan(observed.text);
    // The result says when the tree was cut to fit; a model would then ask for the controls only, as the description suggests.
    if (typeof picked === "string" && observed.text.includes("cut to fit")) picked = plan((await call("observe", { mode: "interactive" })).text);
    if (typeof picked === "string") return { ...run, note: picked };
    const filled = await call("fill", { fields: [{ target: picked.username, value: username }, { target: picked.password, value: password }] });
    if (filled.isError) return { ...run, note: `fill failed: ${filled.text.split("\n")[0]}` };
    const submitted = picked.submit
      ? await call("click", { target: picked.submit })
      : await call("type", { target: picked.password, key: "Enter" });
    await settle();
    run.success = succeeded(recorded);
    if (!run.success) run.note = submitted.isError ? `submit failed: ${submitted.text.split("\n")[0]}` : picked.submit ? "clicked another control" : "Enter did not submit";
    return run;
  } finally {
    await toolset.close();
  }
}

// Playwright MCP's way: a snapshot after every action.

async function runPlaywright(provider: CorpusProvider, url: string): Promise<Run> {
  const run: Run = { calls: 0, bytes: 0, success: false, note: "" };
  const session = await provider.create({ openTag: `bench-pw-${crypto.randomUUID()}` });
  try {
    const context = await provider.connect(session);
    const page = await context.newPage();
    page.setDefaultTimeout(actionTimeoutMs);
    const respond = async () => {
      const snapshot = await page.ariaSnapshot({ mode: "ai" });
      run.calls++;
      run.bytes += utf8(`- Page URL: ${page.url()}\n- Page Title: ${await page.title().catch(() => "")}\n`) + utf8(snapshot);
      return snapshot;
    };
    await page.goto(url, { timeout: 15_000 }).catch(() => undefined);
    const recorded = await installRecorder(page);
    const snapshot = await respond();
    const picked = plan(snapshot);
    if (typeof picked === "string") return { ...run, note: picked };
    await page.getByRef(picked.username).fill(username);
    await page.getByRef(picked.password).fill(password);
    await respond();
    if (picked.submit) await page.getByRef(picked.submit).click();
    else await page.getByRef(picked.password).press("Enter");
    await settle();
    await respond().catch(() => undefined);
    run.success = succeeded(recorded);
    if (!run.success) run.note = picked.submit ? "clicked another control" : "Enter did not submit";
    return run;
  } catch (error) {
    return { ...run, note: `failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` };
  } finally {
    await provider.release(session.id);
  }
}

async function withTimeout<T>(work: Promise<T>, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), pageTimeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function main(): Promise<void> {
  if (!corpusPresent()) {
    console.log(`corpus not found at ${corpusDir} (set STATION_CORPUS_DIR), skipped`);
    return;
  }
  const pages = (await readCorpusManifest()).filter((entry) => entry.kind === "login");
  const server = await startCorpusServer(pages);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: findChromium(), args: [...closedNetworkArgs] });
  const provider = createCorpusProvider(browser, origin);
  const created: string[] = [];
  const tracking: CorpusProvider = {
    ...provider,
    async create(request) {
      const session = await provider.create(request);
      created.push(session.id);
      return session;
    },
  };
  const adapter = new PlaywrightBrowserAdapter({ provider: tracking });
  const manager = new BrowserSessionManager(adapter, 2);
  const rows: PageRow[] = [];
  const timedOut: Run = { calls: 0, bytes: 0, success: false, note: `timed out after ${pageTimeoutMs} ms` };
  try {
    for (const corpusPage of pages) {
      const url = `${origin}/pages/${corpusPage.file}`;
      const toolset = createBrowserAgentTools({ client: manager, maxSessions: 1 });
      const ours = await withTimeout(runOurs(toolset, tracking, created, url), timedOut);
      const playwright = await withTimeout(runPlaywright(provider, url), timedOut);
      const row = { file: corpusPage.file, ours, playwright };
      rows.push(row);
      printRow(row);
    }
  } finally {
    await manager.close();
    await adapter.shutdown().catch(() => undefined);
    await browser.close();
    server.close();
  }
  printSummary(rows);
}

let headerPrinted = false;
function printRow(row: PageRow): void {
  if (!headerPrinted) {
    console.log(["page".padEnd(16), "ours calls", "bytes", "ok", "  pw calls", "bytes", "ok", "ratio", "  notes"].join(" "));
    headerPrinted = true;
  }
  const { ours, playwright } = row;
  const notes = [ours.note && `ours: ${ours.note}`, playwright.note && `pw: ${playwright.note}`].filter(Boolean).join("; ");
  console.log(
    [
      row.file.padEnd(16),
      String(ours.calls).padStart(10),
      String(ours.bytes).padStart(5),
      (ours.success ? "yes" : "NO").padStart(3),
      String(playwright.calls).padStart(10),
      String(playwright.bytes).padStart(5),
      (playwright.success ? "yes" : "NO").padStart(3),
      (playwright.bytes ? ours.bytes / playwright.bytes : Number.NaN).toFixed(3).padStart(5),
      notes ? `  ${notes}` : "",
    ].join(" "),
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function printSummary(rows: readonly PageRow[]): void {
  const sum = (pick: (row: PageRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const oursBytes = sum((row) => row.ours.bytes);
  const pwBytes = sum((row) => row.playwright.bytes);
  const oursOk = rows.filter((row) => row.ours.success).length;
  const pwOk = rows.filter((row) => row.playwright.success).length;
  const measured = rows.filter((row) => row.playwright.bytes > 0 && row.ours.bytes > 0);
  const summary: [string, string][] = [
    ["login pages", String(rows.length)],
    ["success          ours / pw", `${oursOk} / ${pwOk}`],
    ["tool calls total ours / pw", `${sum((row) => row.ours.calls)} / ${sum((row) => row.playwright.calls)}`],
    ["median calls     ours / pw", `${median(rows.map((row) => row.ours.calls))} / ${median(rows.map((row) => row.playwright.calls))}`],
    ["bytes total      ours / pw", `${oursBytes} / ${pwBytes}`],
    ["median bytes     ours / pw", `${median(rows.map((row) => row.ours.bytes))} / ${median(rows.map((row) => row.playwright.bytes))}`],
    ["ratio of totals (ours/pw)", (oursBytes / pwBytes).toFixed(3)],
    ["median per-page ratio", median(measured.map((row) => row.ours.bytes / row.playwright.bytes)).toFixed(3)],
  ];
  console.log("\nsummary");
  for (const [label, value] of summary) console.log(`  ${label.padEnd(30)} ${value}`);
  const met = oursOk >= pwOk && oursBytes * 5 <= pwBytes;
  console.log(`  ${"target (success ≥, bytes ≤ 1/5)".padEnd(30)} ${met ? "met" : "NOT met"}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
