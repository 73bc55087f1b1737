import { limits } from "../../protocol/limits.js";
import { sanitizeUrl } from "../../protocol/url-policy.js";
import { snapshotAccessibility } from "../accessibility.js";
import type { CommandHandlers } from "../command-context.js";
import { truncateUtf8 } from "../../protocol/utf8.js";
import { readTextAndTitle } from "../visible-text.js";
import { inspectPage } from "../inspect.js";
import { evaluateAsJson } from "../evaluate-result.js";
import { captureScreenshot } from "../screenshot.js";
import { collectChallengeSignals } from "../challenge-signals.js";
import { judgeChallenge } from "../../access/page-challenge.js";

/** inspect · accessibility · screenshot · text · content · evaluate · diagnostics · challenge */
export const observationHandlers: CommandHandlers<
  "inspect" | "accessibility" | "screenshot" | "text" | "content" | "evaluate" | "diagnostics" | "challenge"
> = {
  async inspect(context, command) {
    const state = context.session.selected();
    return inspectPage(
      state.page,
      command.maxElements ?? limits.inspect.elementsDefault,
      command.maxTextLength ?? limits.inspect.textLengthDefault,
    );
  },

  async accessibility(context, command) {
    const { session } = context;
    return snapshotAccessibility(session, session.selected(), command);
  },

  async screenshot(context, command) {
    return captureScreenshot(context.session.selected().page, command.format ?? "png", command.quality);
  },

  // Reads only: issues no refs and leaves those of the last accessibility snapshot valid. One round trip.
  async text(context, command) {
    const state = context.session.selected();
    const { text, title } = await readTextAndTitle(state.page, state.probe);
    const cut = truncateUtf8(text, command.maxBytes ?? limits.text.bytesDefault);
    return { text: cut.text, truncated: cut.truncated, url: sanitizeUrl(state.page.url()), title };
  },

  async content(context, command) {
    const state = context.session.selected();
    const html = await state.page.content();
    const cut = truncateUtf8(html, command.maxBytes ?? limits.contentBytes);
    return { html: cut.text, truncated: cut.truncated, bytes: cut.bytes, url: sanitizeUrl(state.page.url()) };
  },

  async evaluate(context, command) {
    const state = context.session.selected();
    // A bare `undefined` (a statement, a void call) reads as null, as JSON would have it.
    return { value: await evaluateAsJson(state.page, command.expression) };
  },

  async diagnostics(context, command) {
    context.session.assertOpen();
    return context.session.diagnostics.read(command.since);
  },

  // Reads only: one in-page call for the DOM signals, plus what the network delivered and the cookie names.
  // Noted as the page's latest classification, so that a challenge left behind by a navigation reads as solved.
  async challenge(context) {
    const { session } = context;
    const state = session.selected();
    // The provider's solver state (a REST call) is asked at the same time; failing, it is left out.
    const solver = context.solverStatus?.().catch(() => undefined);
    const signals = await collectChallengeSignals(session.context, state);
    const navigations = state.navigations;
    const result = judgeChallenge(state.challenge, signals, navigations);
    state.challenge.last!.result = state.challenge.last!.plain;
    const provided = await solver;
    return provided && !result.solver ? { ...result, solver: provided } : result;
  },
};
