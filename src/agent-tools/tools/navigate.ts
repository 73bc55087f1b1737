import * as v from "valibot";
import { dialogAction, dialogTimeout, promptText, url } from "../../protocol/command-fields.js";
import { choice, pageId } from "../../protocol/fields.js";
import { defineBrowserTool, hints } from "../define-tool.js";
import { invalidInputReply } from "../failure.js";
import { definedOnly, described, sessionInput } from "../fields.js";
import { addPage, outcomeReply, textReply } from "../reply.js";
import { describePage, noteSelected, type ActionCommand } from "../run-action.js";
import { runAction, runCommand } from "../run-command.js";

/** navigate · pages · dialog: where the session is. */

const historyActions = ["back", "forward", "reload"] as const;

export const navigateTool = defineBrowserTool({
  name: "station_browser_navigate",
  description:
    "Loads a URL in the selected page, or goes back, forward or reloads; reports the URL, title and what changed (observe for " +
    "refs). To follow a link, click it; for a new tab, use station_browser_pages.",
  input: sessionInput({
    url: v.optional(described(url, "An absolute http(s) URL, or about:blank. Give url or action.")),
    action: v.optional(described(choice(historyActions), "Instead of a URL: go back, forward or reload.")),
  }),
  annotations: hints("Navigate", { openWorldHint: true }),
  async run(input, context) {
    if ((input.url === undefined) === (input.action === undefined)) {
      return invalidInputReply(`input.url: give exactly one of url or action`);
    }
    return input.url === undefined
      ? runAction(context, input.session, { op: input.action! })
      : runAction(context, input.session, { op: "navigate", url: input.url }, "navigate", { requestedUrl: input.url });
  },
});

const pageActions = ["list", "new", "select", "close"] as const;

export const pagesTool = defineBrowserTool({
  name: "station_browser_pages",
  description:
    "Lists the pages (tabs) of a session, opens a new one (optionally at url), selects or closes one. Other tools act on " +
    "the selected page. List after an action reports new pages (popups). Not for navigating the current page.",
  input: sessionInput({
    action: described(choice(pageActions), "What to do."),
    page: v.optional(described(pageId, "The page id (p1, …) to select or close; close without it closes the selected page.")),
    url: v.optional(described(url, "For new: an http(s) URL to open.")),
  }),
  annotations: hints("Pages (tabs)", { openWorldHint: true }),
  async run(input, context) {
    if (input.url !== undefined && input.action !== "new") return invalidInputReply(`input.url: only allowed with action "new"`);
    if (input.page !== undefined && (input.action === "list" || input.action === "new")) return invalidInputReply(`input.page: only allowed with action "select" or "close"`);
    if (input.action === "select" && input.page === undefined) return invalidInputReply(`input.page: required with action "select"`);
    if (input.action === "list") {
      return runCommand(context, input.session, { op: "pages" }, "list pages", ({ pages }, entry) => {
        noteSelected(entry, pages);
        return addPage(textReply([`${entry.alias} has ${pages.length} page${pages.length === 1 ? "" : "s"}:`]), pages.map((page) => describePage(page)).join("\n"));
      });
    }
    const command: ActionCommand =
      input.action === "new"
        ? { op: "newPage", ...(input.url === undefined ? {} : { url: input.url }) }
        : input.action === "select"
          ? { op: "selectPage", pageId: input.page! }
          : { op: "closePage", ...(input.page === undefined ? {} : { pageId: input.page }) };
    const pageIdOf = (result: unknown) => (result as { pageId?: unknown }).pageId;
    return runAction(context, input.session, command, `${input.action} page`, {
      note: (result) => (typeof pageIdOf(result) === "string" ? `page ${String(pageIdOf(result))} is selected` : undefined),
      ...(input.url === undefined ? {} : { requestedUrl: input.url }),
    });
  },
});

export const dialogTool = defineBrowserTool({
  name: "station_browser_dialog",
  description:
    "Sets how the next JavaScript dialog (alert, confirm, prompt) is answered: accept (optionally with promptText) or dismiss. Call " +
    "it just before the action that opens it; it applies once and expires (default 10 s). Without it, dialogs are dismissed " +
    "at once and the result says so.",
  input: sessionInput({
    action: described(dialogAction, "Accept or dismiss the dialog."),
    promptText: described(promptText, "Text to enter into a prompt dialog when accepting."),
    timeoutMs: described(dialogTimeout, "How long the policy waits for a dialog, in ms (default 10000)."),
  }),
  annotations: hints("Dialog policy", { idempotentHint: true }),
  async run(input, context) {
    const { session, action, ...rest } = input;
    return runCommand(
      context,
      session,
      { op: "dialog", action, ...definedOnly(rest) },
      "dialog policy",
      (result, entry) => outcomeReply("ok", `the next dialog in ${entry.alias} will be ${result.action === "accept" ? "accepted" : "dismissed"} (policy expires ${result.expiresAt})`),
      true,
    );
  },
});
