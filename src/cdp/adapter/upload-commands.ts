/**
 * `upload` on the CDP engine, with the Playwright engine's checks, results
 * and outcome rule, and no local disk:
 * - inline files: one call of the engine's script finds the target, checks
 *   it is a file input (`multiple` for several files) and builds the files in
 *   the isolated world from their bytes (`upload-script.ts`): one round trip;
 * - staged files (`stageFile` put them on the browser's machine through the
 *   provider's file API): the same call checks the input, a second one sent
 *   with it hands back the input's handle, then `DOM.setFileInputFiles` sets
 *   the provider's paths on it: two round trips. An input inside same-origin
 *   iframes is found through its frames in the same call; its handle (an
 *   object of the top document's isolated world) names the frame's node,
 *   which `DOM.setFileInputFiles` takes across the page's frames.
 * From the moment the files may have been set, a failure is an unknown outcome.
 */
import { ActionFailedError, ValidationError } from "../../errors.js";
import { base64DecodedBytes, isStagedFile, type CommandOf } from "../../protocol/commands.js";
import type { UploadResult } from "../../protocol/results.js";
import { mayHaveRun } from "../call-errors.js";
import { describeAction, markOf, sendInput, settleAfterInput, type CdpCommandContext, type CdpHandlers } from "./context.js";
import { actionTimeout } from "./interaction.js";
import { firstLine } from "./page.js";
import type { FrameAnswer } from "./frame-script.js";
import { prepareTarget, readyAnswer, targetExpression } from "./targets.js";
import { crossWorldOf } from "./cross-frames.js";
import type { CdpSession } from "../session.js";
import { uploadInputGlobal } from "./upload-script.js";

/** The object group of a staged upload's input handle; the next staged upload releases it. */
const handleGroup = "station-upload";

/** The global a staged upload's script answer waits in, for the handle call sent with it. */
const foundGlobal = "__stationUploadFound";

/**
 * The expression that hands back the input a staged upload's script checked
 * (null when there is none), and forgets it; after the script's answer in
 * `found` when the two calls are sent together.
 */
function takeInput(found?: string): string {
  const take = `const input = globalThis.${uploadInputGlobal}; delete globalThis.${uploadInputGlobal}; return typeof input === "function" ? input() : null;`;
  return found === undefined
    ? `(() => { ${take} })()`
    : `Promise.resolve(globalThis.${found}).then((answer) => { delete globalThis.${found}; if (answer?.status !== "ok") { delete globalThis.${uploadInputGlobal}; return null; } ${take} })`;
}

/** upload */
export const uploadHandlers: CdpHandlers<"upload"> = {
  async upload(context, command) {
    const staged = command.files.filter(isStagedFile);
    if (staged.length > 0) return uploadStaged(context, command, staged);
    const files = command.files.map((file) => {
      if (isStagedFile(file)) throw new ValidationError("command.files", "staged and inline files cannot be mixed in one upload");
      return { name: file.name, mimeType: file.mimeType ?? "application/octet-stream", base64: file.base64 };
    });
    const mark = markOf(context.page);
    // The script sets the files itself: once its call may have run, so may the upload.
    const ready = await prepareTarget(context, "upload", command.target, { action: "upload", upload: { count: files.length, files }, timeoutMs: actionTimeout(command) }).catch((error: unknown) => {
      if (mayHaveRun(error)) context.reached = true;
      throw error;
    });
    context.reached = true;
    await settleAfterInput(context, mark);
    const result: UploadResult = { ...(await describeAction(context, mark, ready.title)), files: files.map((file) => ({ name: file.name, bytes: base64DecodedBytes(file.base64) })) };
    return result;
  },
};

/** `upload` of staged files: their paths on the browser's machine go into the input with `DOM.setFileInputFiles`. */
async function uploadStaged(context: CdpCommandContext, command: CommandOf<"upload">, staged: { staged: string }[]): Promise<UploadResult> {
  if (staged.length !== command.files.length) throw new ValidationError("command.files", "staged and inline files cannot be mixed in one upload");
  const files = staged.map((file, index) => {
    const found = context.staged.files.get(file.staged);
    if (!found) throw new ValidationError(`command.files[${index}].staged`, `no file ${file.staged} is staged for session ${context.pages.sessionId}`);
    return found;
  });
  const { page } = context;
  const mark = markOf(page);
  const request = { action: "upload", upload: { count: files.length }, timeoutMs: actionTimeout(command) } as const;
  const options = { timeoutMs: Math.max(1, context.deadlineAt - Date.now()) };
  const crossRef = command.target.by === "ref" && crossWorldOf(page.refs.resolve(page.pageId, command.target.ref)) > 0;
  let ready: Extract<FrameAnswer, { status: "ok" }> | undefined;
  let input: { session: CdpSession; objectId: string } | undefined;
  if (!crossRef) {
    // In a frame, the script leaves the input in the frame's realm: it is handed on to the top world, where the handle call looks.
    const find = targetExpression(page, "upload", command.target, request, undefined, [uploadInputGlobal]);
    const contextId = await page.world();
    // Sent together: the previous upload's handle released, the script's call, and the call that hands back the input it checked.
    const [, answered, handed] = await Promise.all([
      page.session.send("Runtime.releaseObjectGroup", { objectGroup: handleGroup }, options).catch(() => undefined),
      page.session.send("Runtime.evaluate", { expression: `globalThis.${foundGlobal} = (${find})`, contextId, returnByValue: true, awaitPromise: true }, options),
      page.session.send("Runtime.evaluate", { expression: takeInput(foundGlobal), contextId, awaitPromise: true, objectGroup: handleGroup }, options).catch(() => undefined),
    ]);
    if (answered.exceptionDetails) throw new ActionFailedError(`upload: ${firstLine(answered.exceptionDetails.exception?.description ?? answered.exceptionDetails.text)}`);
    const answer = answered.result.value as FrameAnswer;
    if (answer.status !== "crossOrigin") {
      ready = readyAnswer(context, "upload", command.target, request, answer);
      const objectId = handed?.result.objectId;
      if (objectId) input = { session: page.session, objectId };
    }
  }
  if (!ready) {
    // An input inside a cross-origin iframe: found in that frame's world (cross-frames.ts), its handle taken there, and its files set through that world's session.
    ready = await prepareTarget(context, "upload", command.target, request, undefined, [uploadInputGlobal]);
    const world = context.targetWorld;
    if (!world) throw new ActionFailedError("upload: the file input's frame could not be reached; no files were set");
    const handed = await world.session.send("Runtime.evaluate", { expression: takeInput(), contextId: await world.contextId(), awaitPromise: true, objectGroup: handleGroup }, options);
    const objectId = handed.result.objectId;
    if (objectId) input = { session: world.session, objectId };
  }
  if (!input) throw new ActionFailedError("upload: the file input went away before its files could be set; no files were set");
  const { session, objectId } = input;
  await sendInput(context, [(callOptions) => session.send("DOM.setFileInputFiles", { files: files.map((file) => file.path), objectId }, callOptions)]);
  if (session !== page.session) void session.send("Runtime.releaseObjectGroup", { objectGroup: handleGroup }).catch(() => undefined);
  await settleAfterInput(context, mark);
  return { ...(await describeAction(context, mark, ready.title)), files: files.map((file) => ({ name: file.name, bytes: file.size })) };
}
