import type { Page } from "playwright-core";
import { ActionFailedError } from "../errors.js";
import { limits } from "../protocol/limits.js";
import { imageSize } from "../protocol/image-size.js";
import type { ScreenshotResult } from "../protocol/results.js";

export { imageSize };

/**
 * A viewport screenshot that never exceeds 1280×800: larger viewports are
 * downscaled by Chromium (CDP clip scale) and the scale is reported. An empty
 * or unreadable image is an error, never a success.
 */
export async function captureScreenshot(page: Page, format: "png" | "jpeg", quality: number | undefined): Promise<ScreenshotResult> {
  const viewport = page.viewportSize() ?? (await page.evaluate(() => ({ width: innerWidth, height: innerHeight })));
  const scale = Math.min(1, limits.screenshot.agentMaxWidth / viewport.width, limits.screenshot.agentMaxHeight / viewport.height);
  const jpegQuality = format === "jpeg" ? (quality ?? limits.screenshot.jpegQualityDefault) : undefined;
  let bytes: Uint8Array;
  if (scale === 1) {
    bytes = await page.screenshot({ type: format, scale: "css", ...(jpegQuality === undefined ? {} : { quality: jpegQuality }) });
  } else {
    const session = await page.context().newCDPSession(page);
    try {
      const scroll = await page.evaluate(() => ({ x: scrollX, y: scrollY }));
      const { data } = await session.send("Page.captureScreenshot", {
        format,
        ...(jpegQuality === undefined ? {} : { quality: jpegQuality }),
        clip: { x: scroll.x, y: scroll.y, width: viewport.width, height: viewport.height, scale },
      });
      bytes = Buffer.from(data, "base64");
    } finally {
      await session.detach().catch(() => undefined);
    }
  }
  const size = bytes.length > 0 ? imageSize(bytes) : undefined;
  if (!size || size.width === 0 || size.height === 0) {
    throw new ActionFailedError(`screenshot: the browser returned an empty or unreadable ${format} image`);
  }
  return {
    mimeType: format === "png" ? "image/png" : "image/jpeg",
    base64: Buffer.from(bytes).toString("base64"),
    width: size.width,
    height: size.height,
    scale: Math.round((size.width / viewport.width) * 1000) / 1000,
  };
}
