import type { Locator, Page } from "playwright-core";
import { fieldsWithValues } from "../protocol/aria/hide-values.js";

/** Time for each read; past it, the fields it was about count as passwords. */
const readTimeoutMs = 2_000;

/**
 * Refs of the text fields of an ARIA snapshot that show a value and may be
 * password inputs, read in Playwright's utility world (refs resolve there, and
 * page code cannot fake what a count sees). One count per frame that has such
 * fields, all frames at once: how many of them still resolve to an element
 * that is not a password input. All of them: nothing to hide. None: all are
 * hidden. Only in between is each field of that frame counted on its own.
 * A field that no longer resolves, or a read that fails or takes too long,
 * counts as a password.
 */
export async function passwordRefs(page: Page, nodes: unknown): Promise<Set<string>> {
  const byFrame = new Map<string, string[]>();
  for (const ref of fieldsWithValues(nodes).keys()) {
    // Refs of an iframe's fields carry its prefix (`f3e7`); the main frame's have none (`e12`).
    const frame = ref.replace(/e\d+$/, "");
    byFrame.set(frame, [...(byFrame.get(frame) ?? []), ref]);
  }
  const hidden = await Promise.all([...byFrame.values()].map((refs) => passwordsAmong(page, refs)));
  return new Set(hidden.flat());
}

/** The refs among `refs` (fields of one frame) to hide. */
async function passwordsAmong(page: Page, refs: string[]): Promise<string[]> {
  const notPassword = page.locator(":not(input[type=password i])");
  const plain = (locator: Locator) => within(locator.and(notPassword).count());
  const union = refs.slice(1).reduce<Locator>((locator, ref) => locator.or(page.getByRef(ref)), page.getByRef(refs[0]!));
  const shown = await plain(union);
  if (shown === refs.length) return [];
  if (shown === 0 || refs.length === 1) return refs;
  const each = await Promise.all(refs.map((ref) => plain(page.getByRef(ref))));
  return refs.filter((_ref, index) => each[index] !== 1);
}

/** A count, or 0 when it fails or does not come within the read timeout. */
async function within(count: Promise<number>): Promise<number> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<number>((resolve) => (timer = setTimeout(() => resolve(0), readTimeoutMs)));
  try {
    return await Promise.race([count.catch(() => 0), late]);
  } finally {
    clearTimeout(timer);
  }
}
