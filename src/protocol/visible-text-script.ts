/** In-page readers of the visible text, the same for both engines (their source is sent to the page). */

/**
 * The visible text of a page's main frame: `innerText` of the body, which
 * never holds input values. Runs in the page, so it must be self-contained.
 * A page without a body (a frameset, an image) reads as empty.
 */
export function readVisibleText(): string {
  const body = document.body;
  return body ? String(body.innerText) : "";
}

/** {@link readVisibleText} and the document's title, in one call. Runs in the page, so it must be self-contained. */
export function readVisibleTextAndTitle(): { text: string; title: string } {
  const body = document.body;
  return { text: body ? String(body.innerText) : "", title: String(document.title) };
}
