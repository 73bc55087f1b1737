/**
 * The scripted model of protocol-only runs: it plays the scenario step by
 * step from what the tools returned, reading the conversation of each
 * request afresh (it keeps no state between calls, like a real model). It
 * reads the access code from the screenshot it was sent, decoding the PNG of
 * the request's own image part, so a broken image path fails the run.
 */
import { ScriptCheckError, firstUrl } from "../support/scripted-model-server.js";
import { readAccessCode } from "./access-code.js";
import { decodePng } from "./png-decode.js";
import { applicant } from "./task.js";

/** One tool call of the conversation and what came back, as the stand-in found them in the request. */
export interface ScriptStep {
  name: string;
  input: Record<string, unknown>;
  /** The result's text. */
  text: string;
  /** Base64 images that reached the model through the API's image channel for this call. */
  images: string[];
}

/** A request, read from its wire format. */
export interface ScriptView {
  task: string;
  steps: ScriptStep[];
}

/** What the scripted model answers: one tool call, or the final text. */
export type ScriptMove = { call: { name: string; input: Record<string, unknown> } } | { final: string };

/**
 * Which script to play: the scenario; one that never finishes (observes
 * forever, for the turn budget); one whose second call fails (a click on a
 * ref no observe issued); one whose API fails on the second call.
 */
export type ScriptName = "scenario" | "never-finish" | "tool-error" | "model-error";

/** Thrown for the `model-error` script: the stand-in answers it with a 500. */
export class ScriptedOutageError extends Error {
  override name = "ScriptedOutageError";
}

const tool = (name: string, input: Record<string, unknown> = {}): ScriptMove => ({ call: { name: `station_browser_${name}`, input } });

/** The ref of `role "name"` in an observe result, or a check error. */
function refOf(text: string, role: string, name: string): string {
  const line = text.split("\n").find((each) => each.trimStart().startsWith(`${role} ${JSON.stringify(name)}`));
  const ref = line === undefined ? undefined : /\[(f?\d*e\d+)\]\s*$/.exec(line)?.[1];
  if (ref === undefined) throw new ScriptCheckError(`the observe result has no ${role} "${name}" with a ref`);
  return ref;
}

/** The access code, decoded from the first screenshot that reached the model in this request. */
function codeFromImage(steps: readonly ScriptStep[]): string {
  const shot = steps.find((step) => step.name === "station_browser_screenshot");
  const image = shot?.images[0];
  if (image === undefined) throw new ScriptCheckError("the screenshot did not reach the model as an image part of this request");
  let code: string | undefined;
  try {
    code = readAccessCode(decodePng(Uint8Array.from(Buffer.from(image, "base64"))));
  } catch (error) {
    throw new ScriptCheckError(`the screenshot in this request is not a readable PNG: ${(error as Error).message}`);
  }
  if (code === undefined) throw new ScriptCheckError("the access code cannot be read from the screenshot in this request");
  return code;
}

function scenarioMove(view: ScriptView): ScriptMove {
  const { steps } = view;
  const at = (index: number) => steps[index]!;
  switch (steps.length) {
    case 0:
      return tool("open", { url: firstUrl(view.task) });
    case 1:
      return tool("screenshot");
    case 2:
      codeFromImage(steps); // Read it now, as a model would when it looks at the image.
      return tool("observe");
    case 3:
      return tool("click", { target: refOf(at(2).text, "link", "Continue to the application form") });
    case 4:
      return tool("observe");
    case 5: {
      const form = at(4).text;
      return tool("fill", {
        fields: [
          { target: refOf(form, "textbox", "Full name"), value: applicant.fullName },
          { target: refOf(form, "combobox", "Country"), option: applicant.country },
          { target: refOf(form, "radio", applicant.permit), checked: true },
          { target: refOf(form, "textbox", "Start date"), value: applicant.startDate },
          { target: refOf(form, "checkbox", "I accept the terms"), checked: true },
          { target: refOf(form, "textbox", "Access code"), value: codeFromImage(steps) },
        ],
      });
    }
    case 6:
      return tool("click", { target: refOf(at(4).text, "button", "Submit application") });
    case 7:
      return tool("observe", { mode: "text" });
    case 8:
      if (!/Reference number: NW-[A-Z0-9]+/.test(at(7).text)) throw new ScriptCheckError("the confirmation page shows no reference number");
      return tool("close");
    default: {
      const reference = /Reference number: (NW-[A-Z0-9]+)/.exec(at(7).text)![1]!;
      return { final: `The application is confirmed and the browser is closed.\nREFERENCE: ${reference}` };
    }
  }
}

/**
 * The next move of `script` for a request. Throws {@link ScriptCheckError}
 * when the request lacks what the script needs (the stand-in answers 400).
 */
export function scriptedMove(script: ScriptName, view: ScriptView): ScriptMove {
  if (view.steps.length === 0) return tool("open", { url: firstUrl(view.task) });
  switch (script) {
    case "scenario":
      return scenarioMove(view);
    case "never-finish":
      return tool("observe");
    case "tool-error":
      return tool("click", { target: "e999" });
    case "model-error":
      throw new ScriptedOutageError("scripted outage: the model API is unavailable");
  }
}
