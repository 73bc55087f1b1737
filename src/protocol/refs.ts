import { NotFoundError, StaleRefError } from "../errors.js";

/** The frame part of a Playwright ref: `f3` of `f3e22`, "" of `e5`. */
const framePrefix = (playwrightRef: string) => /^(f\d+)?e\d+$/.exec(playwrightRef)?.[1] ?? "";

/**
 * Refs handed out by accessibility snapshots. Every snapshot issues fresh
 * numbers (session-wide counter), so a ref from an older snapshot or from
 * before a navigation can never silently resolve to another element.
 */
export class RefRegistry {
  private counter = 0;
  /** Per page: our ref → Playwright's ref, for the latest snapshot only. */
  private readonly latest = new Map<string, Map<string, string>>();
  /** Per page: why its refs were last dropped. */
  private readonly dropped = new Map<string, string>();

  /**
   * Starts a snapshot of `pageId`; the returned function renames Playwright
   * refs. `mainFrameRef` is any Playwright ref of the page's main frame (its
   * root node): refs with its frame prefix become `e<n>`, refs of other frames
   * `f<k>e<n>`, with `k` numbering the frames of this snapshot.
   */
  beginSnapshot(pageId: string, mainFrameRef: string | undefined): { mapRef: (playwrightRef: string) => string; commit: () => void } {
    const next = new Map<string, string>();
    const mainPrefix = framePrefix(mainFrameRef ?? "e0");
    const frames = new Map<string, string>();
    const mapRef = (playwrightRef: string) => {
      const prefix = framePrefix(playwrightRef);
      let frame = "";
      if (prefix !== mainPrefix) {
        frame = frames.get(prefix) ?? `f${frames.size + 1}`;
        frames.set(prefix, frame);
      }
      const ref = `${frame}e${++this.counter}`;
      next.set(ref, playwrightRef);
      return ref;
    };
    const commit = () => {
      this.latest.set(pageId, next);
      this.dropped.set(pageId, "a newer accessibility snapshot was taken");
    };
    return { mapRef, commit };
  }

  /** Drops every ref of `pageId` (navigation, page closed). */
  invalidate(pageId: string, reason: string): void {
    if (this.latest.get(pageId)?.size) this.dropped.set(pageId, reason);
    this.latest.delete(pageId);
  }

  /**
   * Playwright's ref for `ref` on `pageId`.
   *
   * @throws {StaleRefError} when the ref came from an older snapshot or another page.
   * @throws {NotFoundError} when the ref was never issued.
   */
  resolve(pageId: string, ref: string): string {
    const current = this.latest.get(pageId)?.get(ref);
    if (current) return current;
    for (const [otherPage, refs] of this.latest) {
      if (otherPage !== pageId && refs.has(ref)) {
        throw new StaleRefError(ref, `Ref ${ref} belongs to page ${otherPage}, not the selected page ${pageId}; select that page first.`);
      }
    }
    const number = Number(/e(\d+)$/.exec(ref)?.[1] ?? Number.NaN);
    if (number <= this.counter) {
      const why = this.dropped.get(pageId) ?? "it was issued for another page";
      throw new StaleRefError(ref, `Ref ${ref} is stale on page ${pageId}: ${why} since. Take a new accessibility snapshot and use its refs.`);
    }
    throw new NotFoundError(`Ref ${ref} was never issued in this session; take an accessibility snapshot first.`);
  }
}
