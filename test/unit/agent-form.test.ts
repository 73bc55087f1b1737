import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { renderAgentForm, proseBudgetBytes, type AgentFormOptions } from "../../src/protocol/aria/agent-form.js";
import { isInteractive } from "../../src/protocol/aria/agent-form-items.js";
import { readAriaNodes, type AriaChild, type AriaNode } from "../../src/protocol/aria/aria-json.js";
import { renderFullForm } from "../../src/protocol/aria/full-form.js";
import { hideValues } from "../../src/protocol/aria/hide-values.js";
import { closedNetworkArgs, findChromium } from "../../src/providers/local/index.js";

const identity = (ref: string) => ref;

function render(nodes: unknown, overrides: Partial<AgentFormOptions> = {}) {
  return renderAgentForm(nodes, { interactiveOnly: false, depth: 20, maxBytes: 1024 * 1024, boxes: false, mapRef: identity, ...overrides });
}

function lines(snapshot: string): string[] {
  return snapshot.split("\n");
}

/** Refs printed outside quoted strings (what a model can rely on). */
function refsOutsideQuotes(snapshot: string): string[] {
  const unquoted = snapshot.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  // A ref marker is `[` letters and digits `]` with a digit in it (flags such as `[checked]` have none).
  return [...unquoted.matchAll(/\[((?=[a-z]*\d)[a-z0-9]+)\]/g)].map((match) => match[1] as string);
}

const bytesOf = (text: string) => new TextEncoder().encode(text).length;

/** A page-like tree: nested generics around a login form, a footer of links and some prose. */
const loginTree: AriaNode[] = [
  {
    role: "generic",
    ref: "e1",
    active: true,
    children: [
      {
        role: "banner",
        ref: "e2",
        children: [{ role: "link", name: "Home", ref: "e3", cursor: "pointer", url: "https://example.com/" }],
      },
      {
        role: "main",
        ref: "e4",
        children: [
          { role: "heading", name: "Sign   in", level: 1, ref: "e5" },
          {
            role: "generic",
            ref: "e6",
            children: [
              {
                role: "generic",
                ref: "e7",
                children: ["Email", { role: "textbox", name: "Email", ref: "e8", placeholder: "you@example.com" }],
              },
              { role: "textbox", name: "Password", ref: "e9" },
              { role: "checkbox", name: "Remember me", checked: true, ref: "e10" },
              "Remember me",
              { role: "button", name: "Sign in", ref: "e11", disabled: true },
              { role: "generic", ref: "e12", cursor: "pointer", text: "Use a passkey" },
            ],
          },
          { role: "paragraph", ref: "e13", text: "We never share   your\n email." },
        ],
      },
    ],
  },
];

describe("renderAgentForm", () => {
  it("prints every interactive element with its ref and flattens generic containers", () => {
    const { snapshot, refs } = render(loginTree);
    expect(lines(snapshot)).toEqual([
      "banner:",
      ' link "Home" [e3]',
      "main:",
      ' h1 "Sign in"',
      ' textbox "Email" placeholder="you@example.com" [e8]',
      ' textbox "Password" [e9]',
      ' checkbox "Remember me" [checked] [e10]',
      ' button "Sign in" [disabled] [e11]',
      ' generic "Use a passkey" [e12]',
      ' "We never share your email."',
    ]);
    expect(refs).toBe(6);
  });

  it("maps exactly the printed refs, in output order", () => {
    const calls: string[] = [];
    const { snapshot } = render(loginTree, {
      mapRef: (ref) => {
        calls.push(ref);
        return `x${calls.length}`;
      },
    });
    expect(calls).toEqual(["e3", "e8", "e9", "e10", "e11", "e12"]);
    expect(refsOutsideQuotes(snapshot)).toEqual(["x1", "x2", "x3", "x4", "x5", "x6"]);
  });

  it("keeps a link's URL only when the link has no name, and never for in-page anchors", () => {
    const { snapshot } = render([
      { role: "link", name: "Docs", ref: "e1", url: "https://example.com/docs" },
      { role: "link", ref: "e2", url: "https://example.com/account/settings" },
      { role: "link", ref: "e3", url: "#top" },
    ]);
    expect(lines(snapshot)).toEqual([
      'link "Docs" [e1]',
      'link url="https://example.com/account/settings" [e2]',
      "link [e3]",
    ]);
  });

  it("names an unnamed element after its content, undoubling image-plus-caption names", () => {
    const { snapshot } = render([
      { role: "link", ref: "e1", children: [{ role: "img", name: "Argentina", ref: "e2" }, "Argentina"] },
      { role: "button", ref: "e3", children: [{ role: "generic", ref: "e4", text: "Open   menu" }] },
    ]);
    expect(lines(snapshot)).toEqual(['link "Argentina" [e1]', 'button "Open menu" [e3]']);
  });

  it("prints states, values and focus", () => {
    const { snapshot } = render([
      { role: "textbox", name: "Search", ref: "e1", text: "shoes", active: true },
      { role: "checkbox", name: "All", checked: "mixed", ref: "e2" },
      { role: "button", name: "Menu", expanded: true, pressed: true, ref: "e3" },
      { role: "tab", name: "Details", selected: true, ref: "e4" },
      { role: "textbox", name: "Code", invalid: true, ref: "e5" },
    ]);
    expect(lines(snapshot)).toEqual([
      'textbox "Search" [focused] value="shoes" [e1]',
      'checkbox "All" [checked=mixed] [e2]',
      'button "Menu" [pressed] [expanded] [e3]',
      'tab "Details" [selected] [e4]',
      'textbox "Code" [invalid] [e5]',
    ]);
  });

  it("hides the value of fields marked secret by hideValues", () => {
    const nodes = hideValues([{ role: "textbox", name: "Password", ref: "e1", text: "hunter2" }, { role: "textbox", name: "User", ref: "e2", text: "ada" }], new Set(["e1"]));
    const { snapshot } = render(nodes);
    expect(snapshot).toBe('textbox "Password" value="(hidden)" [e1]\ntextbox "User" value="ada" [e2]');
    expect(snapshot).not.toContain("hunter2");
  });

  it("summarises the options of a native select and shows the selected one as its value", () => {
    const options: AriaNode[] = Array.from({ length: 12 }, (_unused, index) => ({
      role: "option",
      name: `Country ${index}`,
      ...(index === 3 ? { selected: true } : {}),
    }));
    const { snapshot } = render([{ role: "combobox", name: "Country", ref: "e1", children: options }]);
    expect(lines(snapshot)).toEqual([
      'combobox "Country" value="Country 3" [e1]',
      ' options: "Country 0", "Country 1", "Country 2", "Country 3", "Country 4", "Country 5", "Country 6", "Country 7", … 4 more',
    ]);
  });

  it("prints options that have refs (custom listboxes) as elements", () => {
    const { snapshot } = render([
      {
        role: "listbox",
        name: "Size",
        ref: "e1",
        children: [
          { role: "option", name: "S", ref: "e2" },
          { role: "option", name: "M", ref: "e3", selected: true },
        ],
      },
    ]);
    expect(lines(snapshot)).toEqual(['listbox "Size" [e1]:', ' option "S" [e2]', ' option "M" [selected] [e3]']);
  });

  it("prints a heading made of one link as a heading link, and other headings as h-lines", () => {
    const { snapshot } = render([
      { role: "heading", level: 2, ref: "e1", children: [{ role: "link", name: "Article title", ref: "e2", url: "/a" }] },
      { role: "heading", level: 3, name: "Related", ref: "e3" },
    ]);
    expect(lines(snapshot)).toEqual(['h2 link "Article title" [e2]', 'h3 "Related"']);
  });

  it("drops repeated headings and headings inside a named element", () => {
    const { snapshot } = render([
      { role: "heading", level: 2, name: "Related", ref: "e1" },
      {
        role: "link",
        name: "Card: How we overhauled navigation",
        ref: "e2",
        children: [
          { role: "heading", level: 4, name: "How we overhauled navigation", ref: "e3" },
          { role: "button", name: "Read", ref: "e4" },
        ],
      },
      { role: "heading", level: 2, name: "Related", ref: "e5" },
    ]);
    expect(lines(snapshot)).toEqual(['h2 "Related"', 'link "Card: How we overhauled navigation" [e2]:', ' button "Read" [e4]']);
  });

  it("shows an unnamed field's text as its value, not as its name", () => {
    const { snapshot } = render([{ role: "textbox", ref: "e1", text: "typed text" }]);
    expect(snapshot).toBe('textbox value="typed text" [e1]');
  });

  it("keeps iframe content with its frame-qualified refs", () => {
    const { snapshot } = render([
      {
        role: "iframe",
        ref: "e7",
        children: [{ role: "generic", ref: "f1e1", children: [{ role: "button", name: "Pay", ref: "f1e2" }] }],
      },
    ]);
    expect(lines(snapshot)).toEqual(["iframe:", ' button "Pay" [f1e2]']);
  });

  it("collapses whitespace, clips long text and drops repeats and punctuation", () => {
    const long = "word ".repeat(40);
    const { snapshot } = render([
      { role: "paragraph", ref: "e1", text: long },
      { role: "paragraph", ref: "e2", text: long },
      "  |  ",
      "Email",
      { role: "textbox", name: "Email", ref: "e3" },
    ]);
    const output = lines(snapshot);
    expect(output).toHaveLength(2);
    expect(output[0]).toMatch(/^"(word ){15}word…"$/);
    expect((output[0] as string).length).toBeLessThanOrEqual(82);
    expect(output[1]).toBe('textbox "Email" [e3]');
  });

  it("drops text that repeats a nearby field's label or placeholder loosely, and keeps text that only resembles it", () => {
    const { snapshot } = render([
      "Email address:",
      { role: "textbox", name: "*Email address", ref: "e1" },
      "Password",
      { role: "textbox", name: "Password *", ref: "e2" },
      "Search the shop",
      { role: "searchbox", ref: "e3", placeholder: "Search the shop…" },
      "Password rules",
      { role: "textbox", name: "New password", ref: "e4" },
    ]);
    expect(lines(snapshot)).toEqual([
      'textbox "*Email address" [e1]',
      'textbox "Password *" [e2]',
      'searchbox placeholder="Search the shop…" [e3]',
      '"Password rules"',
      'textbox "New password" [e4]',
    ]);
  });

  it("drops text that repeats earlier text loosely (case, quotes and punctuation aside)", () => {
    const { snapshot } = render([
      "Don't have an account?",
      { role: "link", name: "Sign up", ref: "e1" },
      "Don’t have an account",
      { role: "link", name: "Register", ref: "e2" },
      "Don't have a card?",
    ]);
    expect(lines(snapshot)).toEqual(['"Don\'t have an account?"', 'link "Sign up" [e1]', 'link "Register" [e2]', '"Don\'t have a card?"']);
  });

  it("leaves text that a heading also says to the heading, and keeps text that only starts like it", () => {
    const { snapshot } = render([
      "3 surprising findings from our survey",
      "Published on June 25",
      { role: "heading", name: "3 Surprising Findings from our Survey!", level: 1, ref: "e1" },
      "3 surprising findings from our survey, explained",
      { role: "link", name: "Share", ref: "e2" },
    ]);
    expect(lines(snapshot)).toEqual([
      '"Published on June 25"',
      'h1 "3 Surprising Findings from our Survey!"',
      '"3 surprising findings from our survey, explained"',
      'link "Share" [e2]',
    ]);
  });

  it("keeps repeated text when it is the only label of an unnamed field", () => {
    const { snapshot } = render([
      { role: "form", name: "Flights", ref: "e1", children: ["Child 1 age", { role: "combobox", ref: "e2" }] },
      { role: "form", name: "Hotels", ref: "e3", children: ["Child 1 age", { role: "combobox", ref: "e4" }] },
      { role: "form", name: "Cars", ref: "e5", children: ["Child 1 age", { role: "link", ref: "e6", url: "/cars" }] },
    ]);
    expect(lines(snapshot)).toEqual([
      'form "Flights":',
      ' "Child 1 age"',
      " combobox [e2]",
      'form "Hotels":',
      ' "Child 1 age"',
      " combobox [e4]",
      'form "Cars":',
      ' link url="/cars" [e6]',
    ]);
  });

  it("drops copyright notices and keeps text that only mentions copyright", () => {
    const { snapshot } = render([
      "© 2019 Acme Inc.",
      "Copyright © 2002-2018 ModCloth.com. All rights reserved.",
      "(c) 2020 Example Ltd",
      "Copyright 2021 Example",
      "2019 Well.ca All Rights Reserved",
      "Copyright law protects the photos in this article.",
      "We reserved all rights to the name.",
      { role: "link", name: "Terms", ref: "e1" },
    ]);
    expect(lines(snapshot)).toEqual(['"Copyright law protects the photos in this article."', '"We reserved all rights to the name."', 'link "Terms" [e1]']);
  });

  it("joins inline text fragments that fit on one line", () => {
    const { snapshot } = render([
      { role: "paragraph", ref: "e1", children: ["Medicines containing", { role: "strong", ref: "e2", text: "Losartan" }, "were recalled."] },
    ]);
    expect(snapshot).toBe('"Medicines containing Losartan were recalled."');
  });

  it("caps prose with a budget and says how many text lines were left out", () => {
    const paragraphs: AriaNode[] = Array.from({ length: 60 }, (_unused, index) => ({
      role: "paragraph",
      ref: `e${index + 10}`,
      text: `Paragraph number ${index} of a long article body that keeps going and going on.`,
    }));
    const { snapshot } = render([...paragraphs, { role: "button", name: "Subscribe", ref: "e1" }]);
    const output = lines(snapshot);
    const textLines = output.filter((line) => line.startsWith('"'));
    expect(textLines.length).toBeGreaterThan(5);
    expect(textLines.length).toBeLessThan(60);
    expect(bytesOf(textLines.join("\n"))).toBeLessThanOrEqual(proseBudgetBytes);
    expect(output).toContain('button "Subscribe" [e1]');
    expect(output[output.length - 1]).toBe(`… ${60 - textLines.length} more text lines not shown`);
  });

  it("gives text in main content the first claim on the prose budget", () => {
    const filler: AriaNode[] = Array.from({ length: 40 }, (_unused, index) => ({
      role: "paragraph",
      ref: `e${index + 100}`,
      text: `Navigation blurb ${index} that nobody needs to read before signing in at all.`,
    }));
    const { snapshot } = render([
      { role: "banner", ref: "e1", children: filler },
      { role: "main", ref: "e2", children: [{ role: "paragraph", ref: "e3", text: "Enter the six-digit code we sent to your phone to finish signing in." }] },
    ]);
    expect(snapshot).toContain(' "Enter the six-digit code we sent to your phone to finish signing in."');
    expect(snapshot).not.toContain("Navigation blurb 39");
  });

  it("always keeps the text that labels an unnamed field, even past the prose budget", () => {
    const filler: AriaNode[] = Array.from({ length: 40 }, (_unused, index) => ({
      role: "paragraph",
      ref: `e${index + 100}`,
      text: `Filler paragraph ${index} that uses up the whole prose budget of the snapshot.`,
    }));
    const label = "Steam account name (the one you chose, not your email address)";
    const { snapshot } = render([...filler, label, { role: "textbox", ref: "e1" }]);
    expect(snapshot).toContain(`"${label}"\ntextbox [e1]`);
    expect(snapshot).not.toContain("Filler paragraph 39");
  });

  it("keeps alert text", () => {
    const { snapshot } = render([{ role: "alert", ref: "e1", children: ["Wrong password."] }, { role: "alert" }]);
    expect(lines(snapshot)).toEqual(["alert:", ' "Wrong password."']);
  });

  it("keeps only interactive elements and their sections with interactiveOnly", () => {
    const { snapshot, refs } = render(loginTree, { interactiveOnly: true });
    expect(lines(snapshot)).toEqual([
      "banner:",
      ' link "Home" [e3]',
      "main:",
      ' textbox "Email" placeholder="you@example.com" [e8]',
      ' textbox "Password" [e9]',
      ' checkbox "Remember me" [checked] [e10]',
      ' button "Sign in" [disabled] [e11]',
      ' generic "Use a passkey" [e12]',
    ]);
    expect(refs).toBe(6);
  });

  it("limits section nesting with depth and counts what lies deeper", () => {
    const nested: AriaNode[] = [
      {
        role: "navigation",
        ref: "e1",
        children: [
          { role: "link", name: "Top", ref: "e2" },
          { role: "menu", name: "More", ref: "e3", children: [{ role: "menuitem", name: "Deep", ref: "e4" }] },
        ],
      },
    ];
    const mapped: string[] = [];
    const { snapshot } = render(nested, { depth: 1, mapRef: (ref) => (mapped.push(ref), ref) });
    expect(lines(snapshot)).toEqual(["navigation:", ' link "Top" [e2]', ' menu "More": … 1 more lines deeper']);
    expect(mapped).toEqual(["e2"]);
    expect(render(nested, { depth: 0 }).snapshot).toBe("navigation: … 2 more lines deeper");
  });

  it("cuts at maxBytes on a line boundary, marks the cut and maps no unprinted ref", () => {
    const links: AriaNode[] = Array.from({ length: 200 }, (_unused, index) => ({ role: "link", name: `Link ${index}`, ref: `e${index + 1}` }));
    const mapped: string[] = [];
    const maxBytes = 1024;
    const result = render(links, { maxBytes, mapRef: (ref) => (mapped.push(ref), ref) });
    expect(result.truncated).toBe(true);
    expect(result.bytes).toBe(bytesOf(result.snapshot));
    expect(result.bytes).toBeLessThanOrEqual(maxBytes);
    const output = lines(result.snapshot);
    expect(output[output.length - 1]).toMatch(/^… truncated at maxBytes=1024: \d+ more lines not shown/);
    const printed = output.slice(0, -1);
    // Plain links in a row share `links:` lines of ten.
    const tenFrom = (first: number) => Array.from({ length: 10 }, (_unused, offset) => `"Link ${first + offset}" [e${first + offset + 1}]`).join(", ");
    printed.forEach((line, index) => expect(line).toBe(`links: ${tenFrom(index * 10)}`));
    expect(mapped).toEqual(refsOutsideQuotes(result.snapshot));
    expect(result.refs).toBe(printed.length * 10);
    const omitted = Number(/: (\d+) more lines/.exec(output[output.length - 1] as string)?.[1]);
    expect(printed.length + omitted).toBe(20);
  });

  it("lists three or more plain links in a row on shared lines, and links with more to say on their own", () => {
    const link = (name: string, ref: string, extra: Partial<AriaNode> = {}): AriaNode => ({ role: "link", name, ref, ...extra });
    const nodes: AriaNode[] = [
      { role: "navigation", ref: "e1", children: [link("Home", "e2"), link("Blog", "e3"), link("Shop", "e4")] },
      link("About", "e5"),
      link("Jobs", "e6"),
      { role: "button", name: "Go", ref: "e7" },
      link("One", "e8"),
      link("Two", "e9", { active: true }),
      link("Three", "e10"),
      link("", "e11", { url: "https://example.com/x" }),
    ];
    expect(lines(render(nodes).snapshot)).toEqual([
      "navigation:",
      ' links: "Home" [e2], "Blog" [e3], "Shop" [e4]',
      'link "About" [e5]',
      'link "Jobs" [e6]',
      'button "Go" [e7]',
      'link "One" [e8]',
      'link "Two" [focused] [e9]',
      'link "Three" [e10]',
      'link url="https://example.com/x" [e11]',
    ]);
    // With boxes every link keeps its own line and box.
    const boxed = nodes[0]!.children!.map((child) => ({ ...(child as AriaNode), box: { x: 1, y: 2, width: 3, height: 4 } }));
    expect(lines(render(boxed, { boxes: true }).snapshot)).toEqual(['link "Home" [e2] [box=1,2,3,4]', 'link "Blog" [e3] [box=1,2,3,4]', 'link "Shop" [e4] [box=1,2,3,4]']);
  });

  it("never exceeds a tiny maxBytes", () => {
    const result = render(loginTree, { maxBytes: 20 });
    expect(result.truncated).toBe(true);
    expect(bytesOf(result.snapshot)).toBeLessThanOrEqual(20);
    expect(result.refs).toBe(0);
  });

  it("appends boxes to elements only when asked", () => {
    const nodes: AriaNode[] = [
      { role: "heading", name: "Title", level: 1, ref: "e1", box: { x: 0, y: 0, width: 100, height: 20 } },
      { role: "button", name: "Go", ref: "e2", box: { x: 10.4, y: 20, width: 30, height: 40.6 } },
    ];
    expect(render(nodes, { boxes: true }).snapshot).toBe('h1 "Title"\nbutton "Go" [e2] [box=10,20,30,41]');
    expect(render(nodes).snapshot).toBe('h1 "Title"\nbutton "Go" [e2]');
  });

  it("keeps page text inside quotes so it cannot forge a ref or a line", () => {
    const { snapshot } = render([
      { role: "paragraph", ref: "e1", text: 'Click here" [e99]\nbutton "Pay [e98]' },
      { role: "button", name: 'Say "hi [e97] [ref=e96]', ref: "e2" },
      { role: "link", name: 'Home" [e95], "Admin', ref: "e3" },
      { role: "link", name: "Blog", ref: "e4" },
      { role: "link", name: "Help", ref: "e5" },
    ]);
    expect(lines(snapshot)).toEqual([
      '"Click here\\" [e99] button \\"Pay [e98]"',
      'button "Say \\"hi [e97] [ref=e96]" [e2]',
      'links: "Home\\" [e95], \\"Admin" [e3], "Blog" [e4], "Help" [e5]',
    ]);
    expect(refsOutsideQuotes(snapshot)).toEqual(["e2", "e3", "e4", "e5"]);
  });

  it("ignores malformed input instead of throwing", () => {
    expect(render(null).snapshot).toBe("");
    expect(render([42, { name: "no role" }, { role: "button", name: "Ok", ref: "e1", children: "bad" }]).snapshot).toBe(
      'button "Ok" [e1]',
    );
  });
});

describe("renderFullForm", () => {
  it("renders Playwright's YAML with refs renamed structurally", () => {
    const nodes: AriaNode[] = [
      {
        role: "generic",
        ref: "e1",
        children: [
          { role: "link", name: "Home", ref: "e2", cursor: "pointer", url: "/" },
          { role: "paragraph", ref: "e3", text: "see [ref=e2]" },
          { role: "generic", name: "Best: price", ref: "e4" },
          "plain",
        ],
      },
    ];
    const { snapshot, refs } = renderFullForm(nodes, { maxBytes: 4096, mapRef: (ref) => `r${ref}` });
    expect(snapshot).toBe(
      [
        "- generic [ref=re1]:",
        '  - link "Home" [ref=re2] [cursor=pointer]:',
        "    - /url: /",
        "  - paragraph [ref=re3]: see [ref=e2]",
        `  - 'generic "Best: price" [ref=re4]'`,
        "  - text: plain",
      ].join("\n"),
    );
    expect(refs).toBe(4);
  });

  it("cuts at maxBytes with a marker", () => {
    const nodes = Array.from({ length: 100 }, (_unused, index) => ({ role: "button", name: `B${index}`, ref: `e${index}` }));
    const result = renderFullForm(nodes, { maxBytes: 500, mapRef: identity });
    expect(result.truncated).toBe(true);
    expect(result.bytes).toBeLessThanOrEqual(500);
    expect(result.snapshot.split("\n").at(-1)).toMatch(/^# truncated at maxBytes=500/);
  });
});

describe("agent form on real Chromium", () => {
  let browser: Browser;
  let server: Server;
  let origin = "";
  const html = `<!doctype html><html><body>
    <header><nav><a href="/home">Home</a> <a href="/logo"><img alt="Logo" src="data:,"></a></nav></header>
    <main><h1>Sign   in</h1>
      <form><label>Email <input name="email" placeholder="you@example.com"></label>
        <input type="password" aria-label="Password">
        <label><input type="checkbox"> Remember me</label>
        <select aria-label="Country"><option>France</option><option selected>Spain</option></select>
        <button type="submit">Continue</button></form>
      <div style="cursor:pointer" onclick="void 0">Use a passkey</div>
      <p>${"Long prose sentence for the article body. ".repeat(30)}</p>
      <div id="host"></div>
      <iframe srcdoc="<button>Pay now</button><a href='/terms'>Terms</a>"></iframe>
    </main>
    <script>document.getElementById("host").attachShadow({ mode: "open" }).innerHTML = "<button>Shadow action</button>";</script>
  </body></html>`;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === "/") response.writeHead(200, { "content-type": "text/html" }).end(html);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: findChromium(), args: [...closedNetworkArgs] });
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  it("prints every interactive ref, resolvable with getByRef, and matches Playwright's full form", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`, { waitUntil: "load" });
    await page.frameLocator("iframe").getByRole("button", { name: "Pay now" }).waitFor();
    const json = await page.ariaSnapshotJSON({ mode: "ai" });
    const printed: string[] = [];
    const agent = render(json, { mapRef: (ref) => (printed.push(ref), ref) });

    const interactive: string[] = [];
    const visit = (children: readonly AriaChild[]) => {
      for (const child of children) {
        if (typeof child === "string") continue;
        if (isInteractive(child)) interactive.push(child.ref);
        visit(child.children ?? []);
      }
    };
    visit(readAriaNodes(json));
    expect(interactive.length).toBeGreaterThanOrEqual(9);
    expect(printed).toEqual(interactive);
    expect(printed.some((ref) => /^f\d+e\d+$/.test(ref))).toBe(true);

    const output = agent.snapshot;
    expect(output).toContain('textbox "Email" placeholder="you@example.com" [');
    expect(output).toContain('combobox "Country" value="Spain" [');
    expect(output).toContain('button "Shadow action" [');
    expect(output).toMatch(/iframe:\n {2}button "Pay now" \[f\d+e\d+\]/);
    expect(output).not.toContain("/home");

    const passkey = printed.find((ref) => output.includes(`generic "Use a passkey" [${ref}]`));
    expect(passkey).toBeDefined();
    expect(await page.getByRef(passkey as string).textContent()).toBe("Use a passkey");

    const text = await page.ariaSnapshot({ mode: "ai" });
    expect(renderFullForm(json, { maxBytes: 1024 * 1024, mapRef: identity }).snapshot).toBe(text);
    expect(agent.bytes * 2).toBeLessThan(bytesOf(text));
    await page.close();
  });
});
