/**
 * Steel's session files API as the provider's `files` (neutral code): the
 * file goes up with `sessions.files.upload` (`POST /v1/sessions/{id}/files`,
 * multipart field `file`), and the answer's `path` is where the session's
 * browser reads it (Steel's docs hand that path to `DOM.setFileInputFiles`).
 */
import { ProviderError } from "../../errors.js";
import type { ProviderFiles } from "../types.js";
import type { SteelApi } from "./api.js";

export function createSteelFiles(api: SteelApi): ProviderFiles {
  return {
    async stage(sessionId, file, signal) {
      const upload = new File([file.data], file.name, { type: file.mimeType });
      const answer = await api.call({ operation: `upload file ${file.name} to session ${sessionId}`, mutating: true, signal }, () =>
        api.client.sessions.files.upload(encodeURIComponent(sessionId), { file: upload }, signal ? { signal } : {}),
      );
      if (typeof answer?.path !== "string" || answer.path === "") {
        throw new ProviderError(`steel: upload file ${file.name} to session ${sessionId} answered without a path`);
      }
      return { path: answer.path };
    },
  };
}
