/**
 * Browserbase's session uploads API as the provider's `files` (neutral
 * code): `sessions.uploads.create` (`POST /v1/sessions/{id}/uploads`,
 * multipart field `file`) answers only `{ message }`; the file is then at
 * `/tmp/.uploads/<file name>` in the session's browser, the path
 * Browserbase's uploads guide hands to `DOM.setFileInputFiles`.
 */
import type { ProviderFiles } from "../types.js";

/** Where Browserbase puts an uploaded file in the session's browser. */
export const browserbaseUploadPath = (name: string): string => `/tmp/.uploads/${name}`;

type Upload = (sessionId: string, file: File, signal: AbortSignal | undefined) => Promise<unknown>;

export function createBrowserbaseUploads(upload: Upload): ProviderFiles {
  return {
    async stage(sessionId, file, signal) {
      await upload(sessionId, new File([file.data], file.name, { type: file.mimeType }), signal);
      return { path: browserbaseUploadPath(file.name) };
    },
  };
}
