import { ValidationError } from "../errors.js";
import {
  BrowserCommandSchema,
  optionalTargetOps,
  requiredTargetOps,
  type BrowserCommand,
  type RawBrowserCommand,
  uploadSizeProblem,
} from "./commands.js";
import { safeParseWith, type SafeParseResult } from "./parse.js";

/**
 * Parses any command payload. Never throws anything but a
 * {@link ValidationError} whose message names the field, e.g.
 * `command.target.frame[3]: expected iframe selector as a string`.
 *
 * @example
 * ```ts
 * const command = parseCommand({ op: "click", target: { by: "role", role: "button", name: "Continue" } });
 * ```
 */
export function parseCommand(input: unknown): BrowserCommand {
  const result = safeParseCommand(input);
  if (!result.ok) throw result.error;
  return result.value;
}

/**
 * Parses a command without throwing.
 *
 * @example
 * ```ts
 * const result = safeParseCommand(JSON.parse(body));
 * if (!result.ok) return { error: result.error.message };
 * ```
 */
export function safeParseCommand(input: unknown): SafeParseResult<BrowserCommand> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, error: new ValidationError("command", 'expected an object with an "op" field') };
  }
  const parsed = safeParseWith(BrowserCommandSchema, input, "command");
  if (!parsed.ok) return parsed;
  const problem = crossFieldProblem(parsed.value);
  if (problem) return { ok: false, error: new ValidationError(problem[0], problem[1]) };
  return { ok: true, value: normalizeTarget(parsed.value) };
}

const requiresTarget = new Set<string>(requiredTargetOps);
const acceptsTarget = new Set<string>([...requiredTargetOps, ...optionalTargetOps]);

/** Rules that span fields, as [field, problem]. */
function crossFieldProblem(command: RawBrowserCommand): [string, string] | undefined {
  if (acceptsTarget.has(command.op)) {
    const { selector, target } = command as { selector?: unknown; target?: unknown };
    if (selector !== undefined && target !== undefined) return ["command.target", "give either `selector` or `target`, not both"];
    if (requiresTarget.has(command.op) && selector === undefined && target === undefined) {
      return ["command.target", "required; give `target` (or the `selector` shorthand)"];
    }
  }
  if (command.op === "upload") {
    const problem = uploadSizeProblem(command.files);
    if (problem) return ["command.files", problem];
  }
  if (command.op === "fill" || command.op === "type") {
    const problem = keyDelaysProblem(command);
    if (problem) return ["command.keyDelaysMs", problem];
  }
  if (command.op === "waitFor") {
    const given = [command.selector ?? command.target, command.text, command.loadState].filter((value) => value !== undefined);
    if (given.length !== 1) return ["command.target", "give exactly one of `target` (or `selector`), `text` or `loadState`"];
  }
  return undefined;
}

/** `keyDelaysMs` must give one pause per character, and `type` takes it or `delayMs`, not both. */
function keyDelaysProblem(command: { keyDelaysMs?: number[] | undefined; delayMs?: number | undefined; value?: string; text?: string }): string | undefined {
  if (command.keyDelaysMs === undefined) return undefined;
  if (command.delayMs !== undefined) return "give either `delayMs` or `keyDelaysMs`, not both";
  const characters = [...(command.value ?? command.text ?? "")].length;
  if (command.keyDelaysMs.length !== characters) return `expected one pause per character (${characters}), got ${command.keyDelaysMs.length}`;
  return undefined;
}

function normalizeTarget(command: RawBrowserCommand): BrowserCommand {
  if (!acceptsTarget.has(command.op)) return command as BrowserCommand;
  const { selector, target, ...rest } = command as RawBrowserCommand & { selector?: string; target?: unknown };
  const normalized = target ?? (selector === undefined ? undefined : { by: "selector", selector });
  return (normalized === undefined ? rest : { ...rest, target: normalized }) as BrowserCommand;
}
