import * as v from "valibot";
import { commandSchemas, type BrowserCommandInput } from "../../protocol/commands.js";
import { defineBrowserTool } from "../define-tool.js";
import { failureReply, invalidInputReply } from "../failure.js";
import { described, sessionField } from "../fields.js";
import { addPage, textReply } from "../reply.js";
import { describePage, noteSelected, onSession, parseStep, runSteps } from "../run-action.js";

/** navigate · pages · dialog: where the session is. */

const historyActions = ["back", "forward", "reload"] as const;

export const navigateTool = defineBrowserTool({
  name: "station_browser_navigate",
  group: "default",
  description:
    "Loads a URL in the selected page of a session, or goes back, forward or reloads. Returns the URL and title after it and what changed. " +
    "Then call station_browser_observe to get refs. To open a link on the page, click it instead; to use a new tab, use station_browser_pages.",
  input: v.strictObject(
    {
      session: sessionField(),
      url: v.optional(described(commandSchemas.navigate.entries.url, "An absolute http(s) URL (or about:blank). Give url or action.")),
      action: v.optional(
        described(v.picklist(historyActions, 'expected "back", "forward" or "reload"'), 'Instead of a URL: "back", "forward" or "reload".'),
      ),
    },
    "expected an object of arguments",
  ),
  annotations: { title: "Navigate", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(input, context) {
    if ((input.url === undefined) === (input.action === undefined)) {
      return invalidInputReply(`input.url: give exactly one of url or action`);
    }
    const command = parseStep(input.url === undefined ? { op: input.action! } : { op: "navigate", url: input.url }, "input");
    return onSession(context, input.session, (entry) =>
      runSteps(context, entry, [{ command, label: command.op, fieldRoot: "input" }], input.url === undefined ? input.action! : "navigate", input.url === undefined ? {} : { requestedUrl: input.url }),
    );
  },
});

const pageActions = ["list", "new", "select", "close"] as const;

export const pagesTool = defineBrowserTool({
  name: "station_browser_pages",
  group: "default",
  description:
    "Lists the pages (tabs) of a session, opens a new one (optionally at a URL), selects one to act on, or closes one. Other tools act " +
    "on the selected page. Use list after an action reports new pages (popups). Do not use it to navigate the current page.",
  input: v.strictObject(
    {
      session: sessionField(),
      action: described(v.picklist(pageActions, 'expected "list", "new", "select" or "close"'), '"list", "new", "select" or "close".'),
      page: v.optional(described(commandSchemas.selectPage.entries.pageId, "The page id (p1, p2, …) to select or close; close without it closes the selected page.")),
      url: v.optional(described(commandSchemas.navigate.entries.url, "For new: an http(s) URL to open in the new page.")),
    },
    "expected an object of arguments",
  ),
  annotations: { title: "Pages (tabs)", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(input, context) {
    if (input.url !== undefined && input.action !== "new") return invalidInputReply(`input.url: only allowed with action "new"`);
    if (input.page !== undefined && (input.action === "list" || input.action === "new")) return invalidInputReply(`input.page: only allowed with action "select" or "close"`);
    if (input.action === "select" && input.page === undefined) return invalidInputReply(`input.page: required with action "select"`);
    if (input.action === "list") {
      return onSession(context, input.session, async (entry) => {
        try {
          const { pages } = await context.backend.execute(entry.id, { op: "pages" }, context.signal ? { signal: context.signal } : {});
          noteSelected(entry, pages);
          return addPage(textReply([`${entry.alias} has ${pages.length} page${pages.length === 1 ? "" : "s"}:`]), pages.map((page) => describePage(page)).join("\n"));
        } catch (error) {
          return failureReply(error, { action: "list pages", mutating: false, fieldRoot: "input", scrub: (text) => context.sessions.scrub(text) });
        }
      });
    }
    const raw: BrowserCommandInput =
      input.action === "new"
        ? { op: "newPage", ...(input.url === undefined ? {} : { url: input.url }) }
        : input.action === "select"
          ? { op: "selectPage", pageId: input.page! }
          : { op: "closePage", ...(input.page === undefined ? {} : { pageId: input.page }) };
    const command = parseStep(raw, "input");
    return onSession(context, input.session, async (entry) => {
      const pageId = (result: unknown) => (result as { pageId?: unknown }).pageId;
      return runSteps(context, entry, [{ command, label: command.op, fieldRoot: "input" }], `${input.action} page`, {
        note: (result) => (typeof pageId(result) === "string" ? `page ${String(pageId(result))} is selected` : undefined),
        ...(input.url === undefined ? {} : { requestedUrl: input.url }),
      });
    });
  },
});

export const dialogTool = defineBrowserTool({
  name: "station_browser_dialog",
  group: "default",
  description:
    "Sets how the next JavaScript dialog (alert, confirm, prompt) is answered: accept (with optional prompt text) or dismiss. Call it " +
    "just before the action that opens the dialog; it applies once and expires (default 10 s). Without it, dialogs are dismissed at once " +
    "and the action result says so.",
  input: v.strictObject(
    {
      session: sessionField(),
      action: described(commandSchemas.dialog.entries.action, '"accept" or "dismiss".'),
      promptText: v.optional(described(commandSchemas.dialog.entries.promptText.wrapped, "Text to enter into a prompt dialog when accepting.")),
      timeoutMs: v.optional(described(commandSchemas.dialog.entries.timeoutMs.wrapped, "How long the policy waits for a dialog, in ms (default 10000, at most 30000).")),
    },
    "expected an object of arguments",
  ),
  annotations: { title: "Dialog policy", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(input, context) {
    const command = parseStep(
      {
        op: "dialog",
        action: input.action,
        ...(input.promptText === undefined ? {} : { promptText: input.promptText }),
        ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
      },
      "input",
    );
    return onSession(context, input.session, async (entry) => {
      try {
        const result = await context.backend.execute(entry.id, command, context.signal ? { signal: context.signal } : {});
        return textReply([`outcome: ok — the next dialog in ${entry.alias} will be ${result.action === "accept" ? "accepted" : "dismissed"} (policy expires ${result.expiresAt})`]);
      } catch (error) {
        return failureReply(error, { action: "dialog policy", mutating: true, fieldRoot: "input", scrub: (text) => context.sessions.scrub(text) });
      }
    });
  },
});

