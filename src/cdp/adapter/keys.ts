/**
 * Keys as CDP's `Input.dispatchKeyEvent` wants them (a US keyboard, as
 * Playwright's), and a `press` combination such as `Control+A` or `Enter`
 * turned into the key events to send: modifiers down, the key down and up,
 * modifiers up.
 */
import { ValidationError } from "../../errors.js";
import type { CdpParams } from "../protocol.js";

interface KeyDefinition {
  key: string;
  code: string;
  keyCode: number;
  text?: string;
  location?: number;
}

const named: Record<string, Omit<KeyDefinition, "key">> = {
  Enter: { code: "Enter", keyCode: 13, text: "\r" },
  Tab: { code: "Tab", keyCode: 9 },
  Backspace: { code: "Backspace", keyCode: 8 },
  Delete: { code: "Delete", keyCode: 46 },
  Escape: { code: "Escape", keyCode: 27 },
  Space: { code: "Space", keyCode: 32, text: " " },
  ArrowUp: { code: "ArrowUp", keyCode: 38 },
  ArrowDown: { code: "ArrowDown", keyCode: 40 },
  ArrowLeft: { code: "ArrowLeft", keyCode: 37 },
  ArrowRight: { code: "ArrowRight", keyCode: 39 },
  Home: { code: "Home", keyCode: 36 },
  End: { code: "End", keyCode: 35 },
  PageUp: { code: "PageUp", keyCode: 33 },
  PageDown: { code: "PageDown", keyCode: 34 },
  Insert: { code: "Insert", keyCode: 45 },
  Shift: { code: "ShiftLeft", keyCode: 16, location: 1 },
  Control: { code: "ControlLeft", keyCode: 17, location: 1 },
  Alt: { code: "AltLeft", keyCode: 18, location: 1 },
  Meta: { code: "MetaLeft", keyCode: 91, location: 1 },
  CapsLock: { code: "CapsLock", keyCode: 20 },
  ContextMenu: { code: "ContextMenu", keyCode: 93 },
};
for (let index = 1; index <= 12; index++) named[`F${index}`] = { code: `F${index}`, keyCode: 111 + index };

/** Punctuation of a US keyboard: the character, its code, key code and whether it needs Shift. */
const punctuation: Array<[string, string, number]> = [
  ["-", "Minus", 189], ["_", "Minus", 189], ["=", "Equal", 187], ["+", "Equal", 187], ["[", "BracketLeft", 219], ["{", "BracketLeft", 219],
  ["]", "BracketRight", 221], ["}", "BracketRight", 221], ["\\", "Backslash", 220], ["|", "Backslash", 220], [";", "Semicolon", 186],
  [":", "Semicolon", 186], ["'", "Quote", 222], ['"', "Quote", 222], [",", "Comma", 188], ["<", "Comma", 188], [".", "Period", 190],
  [">", "Period", 190], ["/", "Slash", 191], ["?", "Slash", 191], ["`", "Backquote", 192], ["~", "Backquote", 192], [" ", "Space", 32],
  ["!", "Digit1", 49], ["@", "Digit2", 50], ["#", "Digit3", 51], ["$", "Digit4", 52], ["%", "Digit5", 53], ["^", "Digit6", 54],
  ["&", "Digit7", 55], ["*", "Digit8", 56], ["(", "Digit9", 57], [")", "Digit0", 48],
];

/** The definition of one key name (`Enter`, `a`, `A`, `7`, `?`), or undefined when it is not a key. */
function keyDefinition(name: string): KeyDefinition | undefined {
  const known = named[name];
  if (known) return { key: name === "Space" ? " " : name, ...known };
  if (/^[a-zA-Z]$/.test(name)) return { key: name, code: `Key${name.toUpperCase()}`, keyCode: name.toUpperCase().charCodeAt(0), text: name };
  if (/^[0-9]$/.test(name)) return { key: name, code: `Digit${name}`, keyCode: name.charCodeAt(0), text: name };
  const mark = punctuation.find(([character]) => character === name);
  if (mark) return { key: name, code: mark[1], keyCode: mark[2], text: name };
  return undefined;
}

/** CDP's modifier bits. */
const modifierBits: Record<string, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

/** The bit mask of `modifiers` (`ControlOrMeta` is Control here: the browser runs on Linux or Windows). */
export function modifierMask(modifiers: readonly string[]): number {
  return modifiers.reduce((mask, modifier) => mask | (modifierBits[modifier === "ControlOrMeta" ? "Control" : modifier] ?? 0), 0);
}

type KeyEvent = CdpParams<"Input.dispatchKeyEvent">;

/** The down and up events of one key with `mask` held. */
function keyEvents(definition: KeyDefinition, mask: number): { down: KeyEvent; up: KeyEvent } {
  // With Control, Alt or Meta held a key types nothing (Shift alone still types).
  const text = mask & ~modifierBits.Shift! ? undefined : definition.text;
  const base = {
    key: definition.key,
    code: definition.code,
    windowsVirtualKeyCode: definition.keyCode,
    modifiers: mask,
    ...(definition.location === undefined ? {} : { location: definition.location }),
  };
  return {
    down: { type: text === undefined ? "rawKeyDown" : "keyDown", ...base, ...(text === undefined ? {} : { text, unmodifiedText: text }) },
    up: { type: "keyUp", ...base },
  };
}

/** Modifier keys held while pressing or clicking: their down events and their up events (in reverse). */
export function modifierEvents(modifiers: readonly string[]): { down: KeyEvent[]; up: KeyEvent[] } {
  const down: KeyEvent[] = [];
  const up: KeyEvent[] = [];
  let mask = 0;
  for (const modifier of modifiers) {
    const name = modifier === "ControlOrMeta" ? "Control" : modifier;
    mask |= modifierBits[name] ?? 0;
    const events = keyEvents({ key: name, ...named[name]! }, mask);
    down.push(events.down);
    up.unshift({ ...events.up, modifiers: mask & ~(modifierBits[name] ?? 0) });
  }
  return { down, up };
}

/**
 * The key events of a `press` combination, in order (`Shift+Tab`: Shift
 * down, Tab down, Tab up, Shift up). An unknown key is a `ValidationError`
 * on `command.key`, as the Playwright engine has it.
 */
export function pressEvents(combination: string): KeyEvent[] {
  const parts = combination === "+" ? ["+"] : combination.split(/\+(?!$)/);
  const keyName = parts.pop()!;
  const definition = keyDefinition(keyName);
  const unknown = [...parts.filter((part) => !(part in modifierBits) && part !== "ControlOrMeta"), ...(definition ? [] : [keyName])];
  if (unknown.length > 0) {
    throw new ValidationError("command.key", `Unknown key: "${unknown[0]}"; use names like Enter, Tab, ArrowDown, Control+A`);
  }
  const held = modifierEvents(parts);
  const key = keyEvents(definition!, modifierMask(parts));
  return [...held.down, key.down, key.up, ...held.up];
}

/** One step of typing: a key's down and up events, or text inserted as it is (a character no US key types). */
export type TypeStep = { keys: KeyEvent[] } | { text: string };

/**
 * The steps of typing `text` as Playwright's `keyboard.type` does: each
 * character a US key types is pressed (down, up; `\n` and `\r` are Enter),
 * any other character is inserted.
 */
export function typeSteps(text: string): TypeStep[] {
  const steps: TypeStep[] = [];
  for (const character of text) {
    const definition = character === "\n" || character === "\r" ? keyDefinition("Enter") : keyDefinition(character);
    if (!definition) {
      steps.push({ text: character });
      continue;
    }
    const events = keyEvents(definition, 0);
    steps.push({ keys: [events.down, events.up] });
  }
  return steps;
}
