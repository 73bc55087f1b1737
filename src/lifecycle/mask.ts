import type { BrowserCommand } from "../protocol/commands.js";
import type { Target } from "../protocol/target.js";
import { sanitizeUrl } from "../protocol/url-policy.js";

/**
 * Typed text as it may be stored: its length only. No hash of it is kept: a
 * plain hash of a short password or PIN can be guessed by trying candidates.
 */
export function maskText(text: string): string {
  return `[${text.length} chars]`;
}

function describeTarget(target: Target | undefined): string {
  if (!target) return "";
  const frame = "frame" in target && target.frame?.length ? ` in ${target.frame.join(" > ")}` : "";
  switch (target.by) {
    case "selector":
      return ` ${target.selector}${frame}`;
    case "role":
      return ` role=${target.role}${target.name === undefined ? "" : ` name=${JSON.stringify(target.name.slice(0, 80))}`}${frame}`;
    case "ref":
      return ` ref=${target.ref}`;
    default:
      return ` ${target.by}=${JSON.stringify(target.value.slice(0, 80))}${frame}`;
  }
}

/**
 * A one-line summary of a command for the journal and audit: what it acted
 * on, with typed text, expressions and prompt text masked and URLs sanitised.
 */
export function describeCommand(command: BrowserCommand): string {
  const target = "target" in command ? describeTarget(command.target as Target | undefined) : "";
  switch (command.op) {
    case "navigate":
      return `navigate ${sanitizeUrl(command.url)}`;
    case "newPage":
      return command.url === undefined ? "newPage" : `newPage ${sanitizeUrl(command.url)}`;
    case "fill":
      return `fill${target} value=${maskText(command.value)}`;
    case "type":
      return `type${target} text=${maskText(command.text)}`;
    case "press":
      return `press${target} ${command.key}`;
    case "select":
      return `select${target} value=${maskText(JSON.stringify(command.value))}`;
    case "evaluate":
      return `evaluate ${maskText(command.expression)}`;
    case "dialog":
      return `dialog ${command.action}${command.promptText === undefined ? "" : ` promptText=${maskText(command.promptText)}`}`;
    case "upload":
      return `upload${target} ${command.files.length} file(s)`;
    case "drag":
      return `drag${describeTarget(command.from)} →${describeTarget(command.to)}`;
    case "mouseClick":
    case "mouseMove":
      return `${command.op} ${Math.round(command.x)},${Math.round(command.y)}`;
    default:
      return `${command.op}${target}`;
  }
}
