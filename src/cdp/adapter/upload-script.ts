/**
 * The file-input half of the CDP engine's in-page script, for `upload`: the
 * target script (`target-script.ts`) hands it the element it found, in the
 * same call, in the engine's isolated world. It checks the element as the
 * Playwright engine does (an `<input type=file>`, `multiple` for more than
 * one file); then, for inline files, builds them in the page as Playwright's
 * own `setInputFiles` does for payloads — `File` objects from the bytes, put
 * into `input.files` through a `DataTransfer`, with `input` and `change`
 * fired — so nothing touches a disk. For staged files it only checks: the
 * engine then sets their paths (on the browser's machine) with
 * `DOM.setFileInputFiles`.
 *
 * {@link readyUpload} must be self-contained: its source is sent to the page.
 */
import type { ReadinessKit } from "./input-readiness.js";
import type { ScriptAnswer, ScriptRequest } from "./target-script.js";

/** An inline file as the script takes it. */
export interface ScriptFile {
  name: string;
  mimeType: string;
  base64: string;
}

/** What `upload` asks of the script. */
export interface UploadRequest {
  /** How many files the upload sets. */
  count: number;
  /** Inline files to build and set; absent for staged files (only checked). */
  files?: ScriptFile[];
}

/** The global of the isolated world a staged upload's checked input is left in (as a function answering it, so a frame can hand it to the top world), for `DOM.setFileInputFiles` to be handed it. */
export const uploadInputGlobal = "__stationUploadInput";

/** Runs in the page (isolated world). Self-contained. */
export function readyUpload(element: Element, request: ScriptRequest, _kit: ReadinessKit): ScriptAnswer {
  const upload = request.upload!;
  if (!(element instanceof HTMLInputElement) || element.type !== "file") {
    return { status: "invalid", field: "command.target", reason: "the target is not an <input type=file>" };
  }
  if (upload.count > 1 && !element.multiple) {
    return { status: "invalid", field: "command.files", reason: `${upload.count} files given but the input accepts one (no \`multiple\` attribute)` };
  }
  if (!upload.files) {
    (globalThis as Record<string, unknown>)["__stationUploadInput"] = () => element;
    return { status: "ok", title: document.title };
  }
  const transfer = new DataTransfer();
  for (const file of upload.files) {
    const binary = atob(file.base64);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
    transfer.items.add(new File([bytes], file.name, { type: file.mimeType, lastModified: Date.now() }));
  }
  element.files = transfer.files;
  element.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  element.dispatchEvent(new Event("change", { bubbles: true }));
  return { status: "ok", title: document.title };
}
