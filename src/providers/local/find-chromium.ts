import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { chromium } from "playwright-core";
import { BrowserNotFoundError } from "../../errors.js";

/** Executable names tried on PATH, in order, after CHROMIUM_PATH and Playwright's own browsers. */
const candidateNames = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
const wellKnownPaths = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function playwrightInstalledChromium(): string | undefined {
  try {
    const path = chromium.executablePath();
    return path && isExecutable(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds a Chromium executable: `CHROMIUM_PATH`, then a browser installed by
 * Playwright, then `/usr/bin/chromium`, `chromium-browser`, `google-chrome`
 * (also searched on PATH).
 *
 * @throws {BrowserNotFoundError} when none exists; the message says how to install one.
 * @example
 * ```ts
 * const executablePath = findChromium(); // "/usr/bin/chromium"
 * ```
 */
export function findChromium(environment: Record<string, string | undefined> = process.env): string {
  const configured = environment.CHROMIUM_PATH;
  if (configured) {
    if (isExecutable(configured)) return configured;
    throw new BrowserNotFoundError(`CHROMIUM_PATH is set to ${configured}, which is not an executable file.`);
  }
  const installed = playwrightInstalledChromium();
  if (installed) return installed;
  const onPath = (environment.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .flatMap((directory) => candidateNames.map((name) => join(directory, name)));
  for (const path of [...wellKnownPaths, ...onPath]) {
    if (isExecutable(path)) return path;
  }
  throw new BrowserNotFoundError(
    "No Chromium found. Set CHROMIUM_PATH, or install one: `npx playwright-core install chromium`, " +
      "or the OS package (Debian/Ubuntu: `apt-get install -y chromium`).",
  );
}
