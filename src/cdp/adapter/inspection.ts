/**
 * inspect · content · diagnostics · challenge on the CDP engine, with the
 * results of the Playwright engine's. inspect (of a page without cross-origin
 * iframes: each such frame is walked in its own world after), content and challenge are one
 * serial round trip each (one call in the engine's isolated world; the
 * challenge's cookie names, and the provider's solver state where it has an
 * API for it, are asked at the same time); diagnostics reads the page's ring
 * and sends nothing.
 */
import { ActionFailedError } from "../../errors.js";
import { domSignalsExpression, signalsOf, type DomSignals } from "../../access/challenge-dom-signals.js";
import { judgeChallenge } from "../../access/page-challenge.js";
import { InspectAccumulator, inspectFramesExpression, type CrossInspectFrame, type InspectedFrame } from "../../protocol/inspect-script.js";
import { limits } from "../../protocol/limits.js";
import { truncateUtf8 } from "../../protocol/utf8.js";
import { sanitizeUrl } from "../../protocol/url-policy.js";
import type { CdpHandlers } from "./context.js";
import { enter, topWorld, type WorldHandle } from "./cross-frames.js";

/** What one world's walk answers. */
interface Walked {
  frames: InspectedFrame[];
  stopped: boolean;
  cross?: CrossInspectFrame[];
}

/** The document's markup as Playwright's `page.content()` gives it: the doctype, then the root element's outer HTML. */
const contentExpression = `(() => { let html = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : ""; if (document.documentElement) html += document.documentElement.outerHTML; return html; })()`;

/** inspect · content · diagnostics · challenge */
export const inspectionHandlers: CdpHandlers<"inspect" | "content" | "diagnostics" | "challenge"> = {
  async inspect(context, command) {
    const { page } = context;
    const maxElements = command.maxElements ?? limits.inspect.elementsDefault;
    const maxTextLength = command.maxTextLength ?? limits.inspect.textLengthDefault;
    const found = new InspectAccumulator(maxElements);
    // Each world's walk (the top world's, then each cross-origin frame's in its own world, depth first).
    const walk = async (world: WorldHandle, at?: CrossInspectFrame): Promise<void> => {
      const walked = (await world.evaluate(inspectFramesExpression(found.remaining, maxTextLength, at), context.deadlineAt)) as Walked;
      for (const frame of walked.frames) found.add(frame);
      found.truncated ||= walked.stopped;
      for (const cross of walked.cross ?? []) {
        if (found.remaining <= 0) {
          found.truncated = true;
          return;
        }
        const inner = await enter(page, world, `(globalThis.__stationInspectFrames?.[${cross.index}] ?? null)`, context.deadlineAt, cross.frameId).catch(() => undefined);
        // A frame gone meanwhile is left out, as the Playwright engine leaves out a frame it cannot read.
        if (inner) await walk(inner, cross).catch(() => undefined);
      }
    };
    await walk(topWorld(page));
    return found.result({ width: page.viewport.width, height: page.viewport.height });
  },

  async content(context, command) {
    const { page } = context;
    const html = await page.evaluateInWorld(contentExpression, context.deadlineAt);
    const cut = truncateUtf8(typeof html === "string" ? html : "", command.maxBytes ?? limits.contentBytes);
    return { html: cut.text, truncated: cut.truncated, bytes: cut.bytes, url: sanitizeUrl(page.url) };
  },

  async diagnostics(context, command) {
    return context.page.diagnostics.read(command.since);
  },

  // Reads only. Noted as the page's latest classification, so that a challenge left behind by a navigation reads as solved.
  async challenge(context) {
    const { page } = context;
    // The provider's solver state (a REST call) is asked at the same time; failing, it is left out.
    const provided = context.solverStatus?.().catch(() => undefined);
    const url = page.url;
    const navigations = page.navigations;
    const timeoutMs = Math.max(1, context.deadlineAt - Date.now());
    // The cookie names come from the browser (HttpOnly ones included), asked at the same time.
    const cookies = /^https?:/.test(url)
      ? page.session.send("Network.getCookies", { urls: [url] }, { timeoutMs }).then(({ cookies }) => cookies.map((cookie) => cookie.name), () => undefined)
      : Promise.resolve(undefined);
    let dom: DomSignals;
    try {
      dom = (await page.evaluateInWorld(domSignalsExpression, context.deadlineAt)) as DomSignals;
      if (typeof dom !== "object" || dom === null) throw new ActionFailedError("the page answered no signals");
    } catch (error) {
      throw new ActionFailedError(`challenge: the page could not be read (${(error as Error).message})`, { cause: error });
    }
    const names = page.url === url ? await cookies : undefined;
    const result = judgeChallenge(page.challenge, signalsOf(page, dom, names ?? dom.cookies), navigations);
    page.challenge.last!.result = page.challenge.last!.plain;
    const solver = await provided;
    return solver && !result.solver ? { ...result, solver } : result;
  },
};
