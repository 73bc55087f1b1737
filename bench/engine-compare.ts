/**
 * The CDP engine beside the Playwright engine in bench/observe.ts: one page's
 * comparison of the two `{ op: "accessibility" }` results, and the summary
 * over all pages (issue 17: the CDP engine's snapshot is the Playwright
 * engine's, byte for byte, where the page is the same; its bytes are never
 * larger). Pages with child frames are counted apart: the CDP engine does not
 * read frames yet, so a difference there is expected.
 */

/** One page on the CDP engine, against the Playwright engine's snapshot of it. */
export interface EngineComparison {
  /** Bytes of the CDP engine's result (0 when it failed). */
  bytes: number;
  /** The two snapshots are the same text, refs included. */
  identical: boolean;
  /** Child frames of the page. */
  frames: number;
  /** Where they first differ: the line number and both lines, cut short. */
  firstDifference?: { line: number; playwright: string; cdp: string };
  milliseconds: number;
  error?: string;
}

const shown = 70;
const cut = (line: string | undefined) => (line === undefined ? "(no line)" : line.length > shown ? `${line.slice(0, shown)}…` : line);

/** Compares the CDP engine's result with the Playwright engine's snapshot of the same page. */
export function compareEngines(playwright: string, cdp: { snapshot: string; bytes: number }, frames: number, milliseconds: number): EngineComparison {
  const identical = cdp.snapshot === playwright;
  const comparison: EngineComparison = { bytes: cdp.bytes, identical, frames, milliseconds };
  if (!identical) {
    const ours = playwright.split("\n");
    const theirs = cdp.snapshot.split("\n");
    let index = 0;
    while (index < ours.length && index < theirs.length && ours[index] === theirs[index]) index++;
    comparison.firstDifference = { line: index + 1, playwright: cut(ours[index]), cdp: cut(theirs[index]) };
  }
  return comparison;
}

/** A page as the summary needs it: the Playwright engine's bytes and the CDP engine's comparison. */
export interface ComparedPage {
  engineBytes: number;
  /** The Playwright engine's coverage of the page's labelled login elements (login pages only). */
  coverage?: { covered: number; total: number };
  cdp?: EngineComparison;
}

/** The summary lines (label, value) of the CDP engine over every page both engines measured. */
export function summarizeEngines(pages: readonly ComparedPage[]): Array<[string, string]> {
  const compared = pages.filter((page): page is ComparedPage & { cdp: EngineComparison } => page.cdp !== undefined);
  const failed = compared.filter((page) => page.cdp.error !== undefined);
  const measured = compared.filter((page) => page.cdp.error === undefined);
  const withFrames = measured.filter((page) => page.cdp.frames > 0);
  const differ = (list: readonly { cdp: EngineComparison }[]) => list.filter((page) => !page.cdp.identical).length;
  const larger = measured.filter((page) => page.cdp.bytes > page.engineBytes);
  const total = (pick: (page: ComparedPage & { cdp: EngineComparison }) => number) => measured.reduce((sum, page) => sum + pick(page), 0);
  // Where the text is the same, so are the elements its refs name: the Playwright engine's coverage is the CDP engine's.
  const scored = measured.filter((page) => page.coverage !== undefined);
  const unscored = scored.filter((page) => !page.cdp.identical);
  const covered = scored.filter((page) => page.cdp.identical).reduce((sum, page) => sum + page.coverage!.covered, 0);
  return [
    ["CDP engine pages measured", `${measured.length} of ${compared.length}${failed.length ? ` (${failed.length} failed)` : ""}`],
    ["CDP = Playwright engine (text)", `${measured.length - differ(measured)} of ${measured.length}`],
    [
      "  differing, without frames",
      `${differ(measured.filter((page) => page.cdp.frames === 0))} of ${measured.length - withFrames.length}`,
    ],
    ["  differing, with frames", `${differ(withFrames)} of ${withFrames.length}`],
    ["bytes total   pw engine / CDP", `${total((page) => page.engineBytes)} / ${total((page) => page.cdp.bytes)}`],
    [
      "coverage CDP (same text)",
      `${covered}/${scored.reduce((sum, page) => sum + page.coverage!.total, 0)}${unscored.length ? ` (${unscored.length} differing login page${unscored.length === 1 ? "" : "s"} not scored)` : ""}`,
    ],
    ["CDP larger on", `${larger.length} of ${measured.length} pages${larger.length ? ` (${larger.filter((page) => page.cdp.frames > 0).length} with frames)` : ""}`],
  ];
}
