import type { Page } from "playwright-core";
import { ActionFailedError } from "../errors.js";
import { limits } from "../protocol/limits.js";
import type { ScreenshotResult } from "../protocol/results.js";

/** Width and height of a PNG or JPEG, read from its header; `undefined` when it is neither. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // PNG: signature, then the IHDR chunk with width and height.
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  // JPEG: walk the segments to the first start-of-frame marker.
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let offset = 2;
    while (offset + 9 < bytes.length) {
      if (bytes[offset] !== 0xff) return undefined;
      const marker = bytes[offset + 1]!;
      const length = view.getUint16(offset + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: view.getUint16(offset + 7), height: view.getUint16(offset + 5) };
      }
      offset += 2 + length;
    }
  }
  return undefined;
}

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
