/**
 * Steel's session files as the provider's `downloads` (neutral code). Steel
 * serves the files of a session's machine under one folder (steel-browser's
 * `/files`, where it points the browser's own downloads): the browser saves
 * each download there by its guid (`Browser.setDownloadBehavior`
 * `allowAndName`), and `sessions.files.download` (`GET
 * /v1/sessions/{id}/files/{path}`, `Accept: application/octet-stream`, the
 * path relative to that folder) answers its bytes; `sessions.files.delete`
 * (`DELETE` on the same path) removes it.
 */
import { NotFoundError, ProviderError, ValidationError } from "../../errors.js";
import { BodyTooLarge, readBoundedBytes } from "../../client/read-body.js";
import { limits } from "../../protocol/limits.js";
import { createRemoteDownloads } from "../hosted/remote-downloads.js";
import type { ProviderDownloads } from "../types.js";
import type { SteelApi } from "./api.js";

export function createSteelDownloads(api: SteelApi, folder: string): ProviderDownloads {
  const prefix = `${folder.replace(/\/$/, "")}/`;
  /** The files API path of a file the browser saved at `path`, each segment encoded. */
  function filesPath(path: string): string {
    const segments = path.startsWith(prefix) ? path.slice(prefix.length).split("/") : [];
    if (segments.length === 0 || segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
      throw new ValidationError("path", "a download outside the session's files folder is never read");
    }
    return segments.map(encodeURIComponent).join("/");
  }
  return createRemoteDownloads({
    folder,
    behavior: "allowAndName",
    async fetch(sessionId, path, signal) {
      const file = filesPath(path);
      const operation = `download file ${file} of session ${sessionId}`;
      const response = await api.callOrAbsent({ operation, mutating: false, signal }, () =>
        api.client.sessions.files.download(encodeURIComponent(sessionId), file, signal ? { signal } : {}),
      );
      if (response === undefined) throw new NotFoundError(`${file} is not in Steel's files of session ${sessionId}`);
      try {
        return await readBoundedBytes(response, limits.downloads.fileBytes, signal);
      } catch (error) {
        if (error instanceof BodyTooLarge) throw new ProviderError(`steel: ${operation}: larger than the ${limits.downloads.fileBytes}-byte download limit`);
        throw error;
      }
    },
    async delete(sessionId, path) {
      const file = filesPath(path);
      await api.callOrAbsent({ operation: `delete file ${file} of session ${sessionId}`, mutating: true }, () =>
        api.client.sessions.files.delete(encodeURIComponent(sessionId), file),
      );
    },
  });
}
