/**
 * screenshot · text · evaluate on the CDP engine. `text` is one call in the
 * engine's isolated world; `evaluate` runs in the page's own world, as the
 * Playwright engine's does, with the same JSON encoding and checks.
 */
import { ActionFailedError } from "../../errors.js";
import { decodeEvaluateResult, evaluateAsJsonExpression } from "../../protocol/evaluate-encoding.js";
import { truncateUtf8 } from "../../protocol/utf8.js";
import { readVisibleTextAndTitle } from "../../protocol/visible-text-script.js";
import { imageSize } from "../../protocol/image-size.js";
import { limits } from "../../protocol/limits.js";
import type { ScreenshotResult } from "../../protocol/results.js";
import { sanitizeUrl } from "../../protocol/url-policy.js";
import type { CdpCommandContext, CdpHandlers } from "./context.js";
import { firstLine } from "./page.js";

/** Decodes base64 with the web standard `atob`. */
function base64Bytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Whether `expression` compiles, asked in the isolated world (page scripts cannot fake the answer). */
async function compiles(context: CdpCommandContext, expression: string): Promise<boolean> {
  const source = JSON.stringify(expression);
  const check = `(() => { try { new Function(${source}); return true; } catch { try { new Function("return (" + ${source} + ")"); return true; } catch { return false; } } })()`;
  return (await context.page.evaluateInWorld(check, context.deadlineAt)) === true;
}

/**
 * A viewport screenshot never larger than 1280×800: a larger viewport is
 * scaled down by Chromium (clip scale, one more call for the scroll offset).
 */
async function screenshot(context: CdpCommandContext, format: "png" | "jpeg", quality: number | undefined): Promise<ScreenshotResult> {
  const { page } = context;
  const viewport = page.viewport;
  const scale = Math.min(1, limits.screenshot.agentMaxWidth / viewport.width, limits.screenshot.agentMaxHeight / viewport.height);
  const jpegQuality = format === "jpeg" ? (quality ?? limits.screenshot.jpegQualityDefault) : undefined;
  let clip: { x: number; y: number; width: number; height: number; scale: number } | undefined;
  if (scale < 1) {
    const scroll = (await page.evaluateInWorld("({ x: scrollX, y: scrollY })", context.deadlineAt)) as { x: number; y: number };
    clip = { x: scroll.x, y: scroll.y, width: viewport.width, height: viewport.height, scale };
  }
  const { data } = await page.session.send(
    "Page.captureScreenshot",
    { format, ...(jpegQuality === undefined ? {} : { quality: jpegQuality }), ...(clip ? { clip } : {}) },
    { timeoutMs: Math.max(1, context.deadlineAt - Date.now()) },
  );
  const bytes = base64Bytes(data);
  const size = bytes.length > 0 ? imageSize(bytes) : undefined;
  if (!size || size.width === 0 || size.height === 0) {
    throw new ActionFailedError(`screenshot: the browser returned an empty or unreadable ${format} image`);
  }
  return {
    mimeType: format === "png" ? "image/png" : "image/jpeg",
    base64: data,
    width: size.width,
    height: size.height,
    scale: Math.round((size.width / viewport.width) * 1000) / 1000,
  };
}

/** screenshot · text · evaluate */
export const observationHandlers: CdpHandlers<"screenshot" | "text" | "evaluate"> = {
  screenshot: (context, command) => screenshot(context, command.format ?? "png", command.quality),

  // One call in the isolated world: the page's overrides of innerText or title change nothing.
  async text(context, command) {
    const { page } = context;
    const navigations = page.navigations;
    const read = (await page.evaluateInWorld(`(${String(readVisibleTextAndTitle)})()`, context.deadlineAt)) as { text?: unknown; title?: unknown } | null;
    const text = typeof read?.text === "string" ? read.text : "";
    const title = typeof read?.title === "string" ? read.title : "";
    page.noteTitle(title, navigations);
    const cut = truncateUtf8(text, command.maxBytes ?? limits.text.bytesDefault);
    return { text: cut.text, truncated: cut.truncated, url: sanitizeUrl(page.url), title };
  },

  async evaluate(context, command) {
    const { page } = context;
    context.reached = true;
    const { result, exceptionDetails } = await page.session.send(
      "Runtime.evaluate",
      { expression: evaluateAsJsonExpression(command.expression), returnByValue: true, awaitPromise: true },
      { timeoutMs: Math.max(1, context.deadlineAt - Date.now()) },
    );
    if (exceptionDetails) {
      const message = firstLine(exceptionDetails.exception?.description ?? exceptionDetails.text);
      // An expression that does not compile never ran; the page's word alone is not trusted.
      if (/^SyntaxError\b/.test(message) && !(await compiles(context, command.expression))) context.reached = false;
      throw new ActionFailedError(`evaluate: ${message}`);
    }
    // It ran: a result that cannot be returned is an unknown outcome (decodeEvaluateResult says so), never a failure.
    return { value: decodeEvaluateResult(result.value) };
  },
};
