/**
 * Stand-ins for the hosted providers' file APIs at their wire format (msw):
 * Steel `POST /v1/sessions/{id}/files` and Browserbase
 * `POST /v1/sessions/{id}/uploads`, both multipart with a `file` field. Each
 * received file is written where the stand-in's "remote browser" (a local
 * Chromium here) reads it, and every upload is recorded.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { http, HttpResponse } from "msw";

export interface ReceivedUpload {
  path: string;
  apiKey: string | null;
  contentType: string | null;
  /** The multipart fields sent, by name. */
  fields: string[];
  fileName: string;
  fileType: string;
  size: number;
  /** Where the stand-in put it, as the provider's browser reads it. */
  storedAt: string;
}

async function receive(request: Request, keyHeader: string, storedAt: (name: string) => string): Promise<ReceivedUpload> {
  const url = new URL(request.url);
  const form = await request.formData();
  const file = form.get("file");
  if (!(file instanceof File)) throw new Error("no file field");
  const target = storedAt(file.name);
  await mkdir(join(target, ".."), { recursive: true });
  await writeFile(target, new Uint8Array(await file.arrayBuffer()));
  return {
    path: url.pathname,
    apiKey: request.headers.get(keyHeader),
    contentType: request.headers.get("content-type"),
    fields: [...form.keys()],
    fileName: file.name,
    fileType: file.type,
    size: file.size,
    storedAt: target,
  };
}

/** Steel's session files API: answers `{ path, size, lastModified }`, the path being where the file was stored. */
export function steelFilesStandIn(base: string, vmRoot: string, uploads: ReceivedUpload[]) {
  return http.post(`${base}/v1/sessions/:id/files`, async ({ request, params }) => {
    const upload = await receive(request, "steel-api-key", (name) => join(vmRoot, String(params.id), name));
    uploads.push(upload);
    return HttpResponse.json({ path: upload.storedAt, size: upload.size, lastModified: new Date().toISOString() });
  });
}

/** Browserbase's session uploads API: stores the file at `/tmp/.uploads/<name>` and answers `{ message }`. */
export function browserbaseUploadsStandIn(base: string, uploads: ReceivedUpload[]) {
  return http.post(`${base}/v1/sessions/:id/uploads`, async ({ request }) => {
    const upload = await receive(request, "x-bb-api-key", (name) => join("/tmp/.uploads", name));
    uploads.push(upload);
    return HttpResponse.json({ message: "File uploaded successfully" });
  });
}
