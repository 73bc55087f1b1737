/**
 * The CDP engine's watch of a drag's start, in the page: whether the page
 * started an HTML drag (a trusted `dragstart` it did not cancel), asked once
 * the pointer has moved, to know whether the drag's data is still on its way.
 *
 * {@link watchDrag} must be self-contained: its source is sent to the page.
 */

/** The global of the isolated world the watch's question waits in (handed from a frame to the top world: `targets.ts`). */
export const dragStartedGlobal = "__stationDragStarted";

/**
 * Runs in the page (isolated world). Self-contained. Notes the first trusted
 * `dragstart` from now on, on `windows` (this realm's and those of its
 * same-origin frames: `frame-windows.ts`, since a drag starts in the
 * document under the pointer); `globalThis.__stationDragStarted()` answers, a
 * task later (once the page's own listeners have run), whether one started
 * and was not cancelled. Answers the title.
 */
export function watchDrag(_argument: undefined, windows: Window[] = [window]): string {
  let started: Event | undefined;
  const listener = (event: Event) => {
    if (event.isTrusted && started === undefined) started = event;
  };
  windows.forEach((view) => view.addEventListener("dragstart", listener, true));
  (globalThis as { __stationDragStarted?: () => Promise<boolean> }).__stationDragStarted = () =>
    new Promise<boolean>((resolve) =>
      setTimeout(() => {
        for (const view of windows) {
          try {
            view.removeEventListener("dragstart", listener, true);
          } catch {
            // A frame gone to another origin meanwhile: its listener went with its document.
          }
        }
        resolve(started !== undefined && !started.defaultPrevented);
      }, 0),
    );
  return document.title;
}

/** The question of {@link watchDrag}, asked in the top world: false when no watch is there. */
export const dragStartedExpression = `globalThis.${dragStartedGlobal} ? globalThis.${dragStartedGlobal}() : false`;
