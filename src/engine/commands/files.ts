import type { Locator } from "playwright-core";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ActionFailedError, ValidationError } from "../../errors.js";
import { limits } from "../../protocol/limits.js";
import { actionTimeout, runAction, type CommandHandlers } from "../command-context.js";
import { actOn } from "../targets.js";
import { setFileInputPaths } from "../file-input-paths.js";
import { isStagedFile, type CommandOf } from "../../protocol/commands.js";
import type { CommandContext } from "../command-context.js";

/** upload · downloads · downloadRead · downloadDelete · traceStart · traceStop */
export const fileHandlers: CommandHandlers<"upload" | "downloads" | "downloadRead" | "downloadDelete" | "traceStart" | "traceStop"> = {
  async upload(context, command) {
    const staged = command.files.filter(isStagedFile);
    if (staged.length > 0) return uploadStaged(context, command, staged);
    // Decode everything before touching the page, so a bad file sets nothing.
    const files = command.files.map((file) => {
      if (isStagedFile(file)) throw new ValidationError("command.files", "staged and inline files cannot be mixed in one upload");
      return { name: file.name, mimeType: file.mimeType ?? "application/octet-stream", buffer: Buffer.from(file.base64, "base64") };
    });
    const result = await runAction(context, async (state) => {
      await actOn(context.session, state, command.target, actionTimeout(command), async (locator) => {
        await assertFileInput(locator, files.length, actionTimeout(command));
        await locator.setInputFiles(files, { timeout: actionTimeout(command) });
      });
    });
    return { ...result, files: files.map((file) => ({ name: file.name, bytes: file.buffer.length })) };
  },

  async downloads(context) {
    context.session.assertOpen();
    return { downloads: context.session.downloads.list() };
  },

  async downloadRead(context, command) {
    context.session.assertOpen();
    return context.session.downloads.read(command.downloadId, command.offset, command.length);
  },

  async downloadDelete(context, command) {
    context.session.assertOpen();
    await context.session.downloads.delete(command.downloadId);
    return { ok: true, downloadId: command.downloadId };
  },

  async traceStart(context, command) {
    const { session } = context;
    session.assertOpen();
    if (session.tracing) throw new ActionFailedError("traceStart: a trace is already recording; stop it first with { op: \"traceStop\" }");
    await session.context.tracing.start({ screenshots: command.screenshots ?? false, snapshots: command.snapshots ?? true });
    const timer = setTimeout(() => {
      if (session.tracing?.timer !== timer) return;
      session.tracing = undefined;
      session.context.tracing.stop().catch(() => undefined);
    }, limits.trace.maxDurationMs);
    timer.unref?.();
    session.tracing = { timer };
    return { ok: true, maxDurationMs: limits.trace.maxDurationMs };
  },

  async traceStop(context) {
    const { session } = context;
    session.assertOpen();
    if (!session.tracing) throw new ActionFailedError("traceStop: no trace is recording (never started, or it stopped itself after its maximum duration)");
    clearTimeout(session.tracing.timer);
    session.tracing = undefined;
    const directory = await mkdtemp(join(tmpdir(), "station-trace-"));
    const path = join(directory, "trace.zip");
    try {
      await session.context.tracing.stop({ path });
      const { size } = await stat(path);
      if (size > limits.trace.maxBytes) {
        throw new ActionFailedError(`traceStop: the trace is ${size} bytes, above the ${limits.trace.maxBytes}-byte limit; it was discarded`);
      }
      const bytes = await readFile(path);
      return { mimeType: "application/zip", base64: bytes.toString("base64"), bytes: bytes.length };
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  },
};

/** Checks that `locator` is a file input that takes `count` files. */
async function assertFileInput(locator: Locator, count: number, timeoutMs: number): Promise<void> {
  const input = await locator.evaluate(
    (element) => ({
      isFile: element instanceof HTMLInputElement && element.type === "file",
      multiple: element instanceof HTMLInputElement && element.multiple,
    }),
    undefined,
    { timeout: timeoutMs },
  );
  if (!input.isFile) throw new ValidationError("command.target", "the target is not an <input type=file>");
  if (count > 1 && !input.multiple) {
    throw new ValidationError("command.files", `${count} files given but the input accepts one (no \`multiple\` attribute)`);
  }
}

/** `upload` of staged files: their paths on the browser's machine go into the input over CDP. */
async function uploadStaged(context: CommandContext, command: CommandOf<"upload">, staged: { staged: string }[]) {
  if (staged.length !== command.files.length) throw new ValidationError("command.files", "staged and inline files cannot be mixed in one upload");
  const files = staged.map((file, index) => {
    const found = context.session.staged.get(file.staged);
    if (!found) throw new ValidationError(`command.files[${index}].staged`, `no file ${file.staged} is staged for session ${context.session.id}`);
    return found;
  });
  const result = await runAction(context, async (state) => {
    await actOn(context.session, state, command.target, actionTimeout(command), async (locator) => {
      await assertFileInput(locator, files.length, actionTimeout(command));
      await setFileInputPaths(state.page, locator, files.map((file) => file.path), actionTimeout(command));
    });
  });
  return { ...result, files: files.map((file) => ({ name: file.name, bytes: file.size })) };
}
