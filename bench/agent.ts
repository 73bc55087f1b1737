/**
 * Agent benchmark: a scripted login over login pages, through three real MCP
 * servers side by side, each started as a child process and driven over stdio
 * by an MCP client (bench/mcp-sides.ts), on the same system Chromium with the
 * same closed-network flags; pages are served on 127.0.0.1 (nothing reaches
 * the internet):
 *
 * - ours, `station-browser-use mcp`: open (with the URL), observe (again with
 *   `mode: "interactive"` when the result says it was cut to fit), fill the
 *   username and password in one call, click submit (or press Enter);
 * - theirs, the real `@playwright/mcp` 0.0.83 (pinned devDependency):
 *   browser_navigate, whose answer carries the page snapshot (browser_snapshot
 *   only if it does not), browser_fill_form with both fields, browser_click
 *   (or browser_press_key Enter).
 *
 * All pick fields with the same policy, from the refs of their own answers,
 * by accessible role and name (placeholder and preceding text as fallbacks),
 * never by `data-fathom`. Scoring reads the `data-fathom` ground truth in the
 * page (bench/login-server.ts): a run succeeds when a click or submit lands on
 * `data-fathom="next"` while the `username` and `password` elements hold the
 * values typed. Bytes are the UTF-8 text of every tool result either side
 * returns during the flow; closing the session afterwards is not counted.
 *
 * Pages: the login pages of `../shared/corpus/pages` (MANIFEST.tsv) when
 * present, else (or with `--builtin`) a small generated set
 * (bench/builtin-login-pages.ts).
 *
 * Run: `npm run bench:agent [-- --pages N] [-- --builtin] [-- --dump DIR]` (`--pages N`: the first N pages;
 * `--dump DIR`: every tool input and answer of both sides written to DIR, one file each).
 * Environment: `STATION_CORPUS_DIR`, `CHROMIUM_PATH`.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { builtinLoginPages } from "./builtin-login-pages.js";
import { corpusDir, corpusPresent, readCorpusManifest } from "./corpus.js";
import { startLoginServer, type LoginPage, type LoginServer } from "./login-server.js";
import { startOurs, startOursOnCdp, startPlaywrightMcp, type McpSide, type ToolAnswer } from "./mcp-sides.js";

const pageTimeoutMs = 90_000;
/** How long after the submit the recorder's post may take to arrive. */
const recordWaitMs = 2_000;
const username = "bench.user@example.test";
const password = "Bench-Pass-2718!";

/** One run of the scripted login. */
interface Run {
  calls: number;
  bytes: number;
  success: boolean;
  note: string;
  /** Bytes per tool name, for the summary. */
  byTool: Record<string, number>;
  /** Bytes of each answer per action kind (the same action on both sides), for the side-by-side table. */
  byKind: Partial<Record<ActionKind, number[]>>;
}

/** The actions of the flow, named the same on both sides. */
const actionKinds = ["open", "observe", "fill", "submit"] as const;
type ActionKind = (typeof actionKinds)[number];

/** Which action each tool of either side performs. */
const kindOfTool: Record<string, ActionKind> = {
  station_browser_open: "open",
  browser_navigate: "open",
  station_browser_observe: "observe",
  browser_snapshot: "observe",
  station_browser_fill: "fill",
  browser_fill_form: "fill",
  station_browser_click: "submit",
  station_browser_type: "submit",
  browser_click: "submit",
  browser_press_key: "submit",
};

const emptyRun = (): Run => ({ calls: 0, bytes: 0, success: false, note: "", byTool: {}, byKind: {} });

interface PageRow {
  file: string;
  ours: Run;
  /** Ours on the CDP engine. */
  cdp: Run;
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

/** A ref marker: `[e12]` in the agent form, `[ref=e12]` in Playwright's YAML. */
const refPattern = /\[(?:ref=)?((?:f\d+)?e\d+)\]/;
const interactiveRoles = new Set(["textbox", "searchbox", "combobox", "button", "link", "checkbox", "radio", "menuitem", "tab", "switch"]);
const passwordWords = /pass|pwd|passwort|contraseña|mot de passe|senha|пароль|密码|パスワード|\bpin\b/i;
const usernameWords = /user|e-?mail|login|account|phone|mobile|name|\bid\b|identifi/i;
const submitWords =
  /sign ?in|log ?in|login|log on|submit|continue|next|enter|^go$|anmelden|einloggen|connexion|se connecter|entrar|iniciar|accedi|войти|登录|ログイン/i;
const notSubmit = /forgot|reset|show|hide|google|facebook|apple|twitter|microsoft|create|register|sign ?up|join|help/i;

const unquote = (text: string) => text.replace(/^"(.*)"$/, "$1").trim();

/**
 * Every element line with a ref, in order, from the agent form
 * (`textbox "Email" placeholder="…" [e4]`, `links: "Home" [e1], …`, bare `"text"` lines) or
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
    // `links: "Home" [e1], "Blog" [e2], …`: links sharing a line in the agent form.
    if (/^\s*links: "/.test(line)) {
      for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)" \[((?:f\d+)?e\d+)\]/g)) controls.push({ role: "link", name: match[1]!, placeholder: "", context: text, ref: match[2]! });
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
    // The marker outside quoted page text (a quoted name may hold a look-alike).
    const ref = refPattern.exec(line.replace(/"(?:[^"\\]|\\.)*"/g, '""'))?.[1];
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

const utf8 = (text: string) => new TextEncoder().encode(text).length;
/** The first line of an answer that is not a section heading (`### Error`) or a content wrapper tag. */
const firstLine = (answer: ToolAnswer) =>
  answer.text.split("\n").find((line) => line.trim() !== "" && !line.startsWith("###") && !line.startsWith("<"))?.trim().slice(0, 160) ?? "";

/** Where `--dump DIR` writes every answer, or undefined. */
let dumpDir: string | undefined;
let dumpCount = 0;

/** Counts every answer of a run into it. */
function counter(side: McpSide, run: Run) {
  return async (tool: string, input: Record<string, unknown>) => {
    const answer = await side.call(tool, input);
    if (dumpDir) await writeFile(path.join(dumpDir, `${String(++dumpCount).padStart(3, "0")}-${side.name}-${tool}.txt`), `${JSON.stringify(input)}\n---\n${answer.text}\n`);
    run.calls++;
    const bytes = utf8(answer.text);
    run.bytes += bytes;
    run.byTool[tool] = (run.byTool[tool] ?? 0) + bytes;
    const kind = kindOfTool[tool];
    if (kind) (run.byKind[kind] ??= []).push(bytes);
    return answer;
  };
}

async function runOurs(side: McpSide, server: LoginServer, file: string, runId: string): Promise<Run> {
  const run = emptyRun();
  const call = counter(side, run);
  try {
    const opened = await call("station_browser_open", { url: server.url(file, runId) });
    if (opened.isError) return { ...run, note: `open failed: ${firstLine(opened)}` };
    const observed = await call("station_browser_observe", {});
    let picked = plan(observed.text);
    // The result says when the tree was cut to fit; a model would then ask for the controls only, as the description suggests.
    if (typeof picked === "string" && observed.text.includes("cut to fit")) picked = plan((await call("station_browser_observe", { mode: "interactive" })).text);
    if (typeof picked === "string") return { ...run, note: picked };
    const filled = await call("station_browser_fill", { fields: [{ target: picked.username, value: username }, { target: picked.password, value: password }] });
    if (filled.isError) return { ...run, note: `fill failed: ${firstLine(filled)}` };
    const submitted = picked.submit
      ? await call("station_browser_click", { target: picked.submit })
      : await call("station_browser_type", { target: picked.password, key: "Enter" });
    run.success = await server.waitForSuccess(runId, { user: username, pass: password }, recordWaitMs);
    if (!run.success) run.note = submitted.isError ? `submit failed: ${firstLine(submitted)}` : picked.submit ? "clicked another control" : "Enter did not submit";
    return run;
  } catch (error) {
    return { ...run, note: `failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` };
  } finally {
    await side.call("station_browser_close", {}).catch(() => undefined);
  }
}

async function runPlaywright(side: McpSide, server: LoginServer, file: string, runId: string): Promise<Run> {
  const run = emptyRun();
  const call = counter(side, run);
  try {
    const navigated = await call("browser_navigate", { url: server.url(file, runId) });
    if (navigated.isError) return { ...run, note: `navigate failed: ${firstLine(navigated)}` };
    const snapshot = /\[ref=/.test(navigated.text) ? navigated.text : (await call("browser_snapshot", {})).text;
    const picked = plan(snapshot);
    if (typeof picked === "string") return { ...run, note: picked };
    const filled = await call("browser_fill_form", {
      fields: [
        { target: picked.username, name: "Username", type: "textbox", value: username },
        { target: picked.password, name: "Password", type: "textbox", value: password },
      ],
    });
    if (filled.isError) return { ...run, note: `fill failed: ${firstLine(filled)}` };
    const submitted = picked.submit
      ? await call("browser_click", { target: picked.submit, element: "Submit button" })
      : await call("browser_press_key", { key: "Enter" });
    run.success = await server.waitForSuccess(runId, { user: username, pass: password }, recordWaitMs);
    if (!run.success) run.note = submitted.isError ? `submit failed: ${firstLine(submitted)}` : picked.submit ? "clicked another control" : "Enter did not submit";
    return run;
  } catch (error) {
    return { ...run, note: `failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` };
  } finally {
    await side.call("browser_close", {}).catch(() => undefined);
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

interface Options {
  limit: number | undefined;
  builtin: boolean;
  dump: string | undefined;
}

function readOptions(args: readonly string[]): Options {
  const options: Options = { limit: undefined, builtin: false, dump: undefined };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--builtin") options.builtin = true;
    else if (arg === "--dump" || arg.startsWith("--dump=")) {
      const dir = arg.includes("=") ? arg.slice("--dump=".length) : (args[++index] ?? "");
      if (dir === "") throw new Error("--dump expects a directory");
      options.dump = dir;
    }
    else if (arg === "--pages" || arg.startsWith("--pages=")) {
      const text = arg.includes("=") ? arg.slice("--pages=".length) : (args[++index] ?? "");
      if (!/^[1-9]\d{0,5}$/.test(text)) throw new Error(`--pages expects a positive integer, got ${JSON.stringify(text.slice(0, 20))}`);
      options.limit = Number(text);
    } else throw new Error(`unknown argument ${JSON.stringify(arg.slice(0, 40))} (expected --pages N, --builtin or --dump DIR)`);
  }
  return options;
}

async function loginPages(options: Options): Promise<{ pages: LoginPage[]; source: string }> {
  if (!options.builtin && corpusPresent()) {
    const pages = (await readCorpusManifest()).filter((entry) => entry.kind === "login").map((entry) => ({ file: entry.file, dir: corpusDir }));
    return { pages, source: `corpus ${corpusDir}` };
  }
  if (!options.builtin) {
    console.log(
      `corpus not found at ${corpusDir}: using the built-in generated login pages instead (figures differ from the corpus figures).\n` +
        `For comparable pages, set STATION_CORPUS_DIR to a directory with a MANIFEST.tsv (columns file, kind, …) listing saved login pages ` +
        `(kind "login") whose username, password and submit elements carry data-fathom="username|password|next", ` +
        `e.g. the training samples of github.com/1rneh/fathom-login-forms (lockwise-proof-of-concept/samples/training), as the corpus uses.\n`,
    );
  }
  return { pages: builtinLoginPages(), source: "built-in generated pages" };
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  if (options.dump) {
    await mkdir(options.dump, { recursive: true });
    dumpDir = options.dump;
  }
  const { pages: all, source } = await loginPages(options);
  const pages = options.limit === undefined ? all : all.slice(0, options.limit);
  console.log(`${pages.length} login pages from ${source}`);
  const server = await startLoginServer(pages);
  const ours = await startOurs();
  const cdp = await startOursOnCdp();
  const theirs = await startPlaywrightMcp();
  const rows: PageRow[] = [];
  const timedOut: Run = { ...emptyRun(), note: `timed out after ${pageTimeoutMs} ms` };
  const started = Date.now();
  let runs = 0;
  try {
    for (const page of pages) {
      const oursRun = await withTimeout(runOurs(ours, server, page.file, `o${++runs}`), timedOut);
      const cdpRun = await withTimeout(runOurs(cdp, server, page.file, `c${runs}`), timedOut);
      const theirRun = await withTimeout(runPlaywright(theirs, server, page.file, `p${runs}`), timedOut);
      const row = { file: page.file, ours: oursRun, cdp: cdpRun, playwright: theirRun };
      rows.push(row);
      printRow(row);
    }
  } finally {
    await Promise.all([ours.stop(), cdp.stop(), theirs.stop()]);
    await server.close();
  }
  printSummary(rows, Date.now() - started);
}

let headerPrinted = false;
function printRow(row: PageRow): void {
  if (!headerPrinted) {
    console.log(["page".padEnd(22), "ours calls", "bytes", "ok", " cdp calls", "bytes", "ok", "  pw calls", "bytes", "ok", "ratio", "  notes"].join(" "));
    headerPrinted = true;
  }
  const { ours, cdp, playwright } = row;
  const notes = [ours.note && `ours: ${ours.note}`, cdp.note && `cdp: ${cdp.note}`, playwright.note && `pw: ${playwright.note}`].filter(Boolean).join("; ");
  console.log(
    [
      row.file.padEnd(22),
      String(ours.calls).padStart(10),
      String(ours.bytes).padStart(6),
      (ours.success ? "yes" : "NO").padStart(3),
      String(cdp.calls).padStart(10),
      String(cdp.bytes).padStart(6),
      (cdp.success ? "yes" : "NO").padStart(3),
      String(playwright.calls).padStart(10),
      String(playwright.bytes).padStart(6),
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

function printSummary(rows: readonly PageRow[], elapsedMs: number): void {
  const sum = (pick: (row: PageRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const oursBytes = sum((row) => row.ours.bytes);
  const pwBytes = sum((row) => row.playwright.bytes);
  const oursOk = rows.filter((row) => row.ours.success).length;
  const pwOk = rows.filter((row) => row.playwright.success).length;
  const measured = rows.filter((row) => row.playwright.bytes > 0 && row.ours.bytes > 0);
  const summary: [string, string][] = [
    ["login pages", `${rows.length} (${Math.round(elapsedMs / 1000)} s)`],
    ["success          ours / pw", `${oursOk} / ${pwOk}`],
    ["tool calls total ours / pw", `${sum((row) => row.ours.calls)} / ${sum((row) => row.playwright.calls)}`],
    ["median calls     ours / pw", `${median(rows.map((row) => row.ours.calls))} / ${median(rows.map((row) => row.playwright.calls))}`],
    ["bytes total      ours / pw", `${oursBytes} / ${pwBytes}`],
    ["median bytes     ours / pw", `${median(rows.map((row) => row.ours.bytes))} / ${median(rows.map((row) => row.playwright.bytes))}`],
    ["ratio of totals (ours/pw)", (oursBytes / pwBytes).toFixed(3)],
    ["median per-page ratio", median(measured.map((row) => row.ours.bytes / row.playwright.bytes)).toFixed(3)],
  ];
  console.log("\nsummary (ours: station-browser-use mcp; pw: @playwright/mcp 0.0.83)");
  for (const [label, value] of summary) console.log(`  ${label.padEnd(30)} ${value}`);
  for (const [label, pick] of [["bytes by tool    ours", (row: PageRow) => row.ours], ["bytes by tool    pw", (row: PageRow) => row.playwright]] as const) {
    const totals: Record<string, number> = {};
    for (const row of rows) for (const [tool, bytes] of Object.entries(pick(row).byTool)) totals[tool] = (totals[tool] ?? 0) + bytes;
    console.log(`  ${label.padEnd(30)} ${Object.entries(totals).map(([tool, bytes]) => `${tool.replace(/^station_browser_|^browser_/, "")} ${bytes}`).join(", ")}`);
  }
  printKinds(rows);
  const met = oursOk >= pwOk && oursBytes * 5 <= pwBytes;
  console.log(`  ${"target (success ≥, bytes ≤ 1/5)".padEnd(30)} ${met ? "met" : "NOT met"}`);
  printEngines(rows);
}

/**
 * Ours on the CDP engine against ours on the Playwright engine (issue 17:
 * success equal, bytes no larger): totals, the pages where they part, and
 * bytes per action kind.
 */
function printEngines(rows: readonly PageRow[]): void {
  const sum = (pick: (row: PageRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const cdpBytes = sum((row) => row.cdp.bytes);
  const oursBytes = sum((row) => row.ours.bytes);
  const cdpOk = rows.filter((row) => row.cdp.success).length;
  const oursOk = rows.filter((row) => row.ours.success).length;
  const parted = rows.filter((row) => row.cdp.success !== row.ours.success);
  const larger = rows.filter((row) => row.cdp.bytes > row.ours.bytes);
  const summary: [string, string][] = [
    ["success          cdp / ours", `${cdpOk} / ${oursOk}`],
    ["success differs on", parted.length ? parted.map((row) => `${row.file} (cdp ${row.cdp.success ? "yes" : "no"})`).join(", ") : "no page"],
    ["tool calls total cdp / ours", `${sum((row) => row.cdp.calls)} / ${sum((row) => row.ours.calls)}`],
    ["bytes total      cdp / ours", `${cdpBytes} / ${oursBytes}`],
    ["median bytes     cdp / ours", `${median(rows.map((row) => row.cdp.bytes))} / ${median(rows.map((row) => row.ours.bytes))}`],
    ["cdp larger on", larger.length ? `${larger.length} of ${rows.length} pages: ${larger.map((row) => `${row.file} +${row.cdp.bytes - row.ours.bytes}${row.cdp.success ? "" : " (failed flow)"}`).join(", ")}` : `0 of ${rows.length} pages`],
    ["  of those, succeeded", String(larger.filter((row) => row.cdp.success).length)],
  ];
  console.log("\nthe CDP engine (cdp: the same tools and flow as ours, on the CDP engine over local Chromium)");
  for (const [label, value] of summary) console.log(`  ${label.padEnd(30)} ${value}`);
  for (const kind of actionKinds) {
    const total = (pick: (row: PageRow) => Run) => rows.reduce((bytes, row) => bytes + (pick(row).byKind[kind] ?? []).reduce((a, b) => a + b, 0), 0);
    console.log(`  ${`bytes ${kind}`.padEnd(17)}${"cdp / ours".padEnd(13)} ${total((row) => row.cdp)} / ${total((row) => row.ours)}`);
  }
  const met = cdpOk === oursOk && parted.length === 0 && cdpBytes <= oursBytes;
  console.log(`  ${"target (success =, bytes ≤)".padEnd(30)} ${met ? "met" : "NOT met"}`);
}

/**
 * Bytes per action kind, ours beside theirs: totals over all pages, the median
 * answer, and on how many pages our answer was the larger (pages where both
 * sides answered that action).
 */
function printKinds(rows: readonly PageRow[]): void {
  console.log("\nbytes per action kind (ours: open, observe, fill, click|type Enter; pw: navigate, snapshot, fill_form, click|press_key)");
  console.log(`  ${"kind".padEnd(8)} ${"answers o/pw".padStart(12)} ${"total ours".padStart(10)} ${"total pw".padStart(9)} ${"ratio".padStart(6)} ${"median o/pw".padStart(13)}  ours larger on`);
  for (const kind of actionKinds) {
    const ours = rows.flatMap((row) => row.ours.byKind[kind] ?? []);
    const theirs = rows.flatMap((row) => row.playwright.byKind[kind] ?? []);
    const total = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0);
    const paired = rows.filter((row) => row.ours.byKind[kind]?.length && row.playwright.byKind[kind]?.length);
    const larger = paired.filter((row) => total(row.ours.byKind[kind]!) > total(row.playwright.byKind[kind]!)).length;
    console.log(
      [
        `  ${kind.padEnd(8)}`,
        `${ours.length}/${theirs.length}`.padStart(12),
        String(total(ours)).padStart(10),
        String(total(theirs)).padStart(9),
        (total(theirs) ? total(ours) / total(theirs) : Number.NaN).toFixed(3).padStart(6),
        `${median(ours)}/${median(theirs)}`.padStart(13),
        ` ${larger} of ${paired.length} pages`,
      ].join(" "),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
