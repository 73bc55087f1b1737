/**
 * The scenario, generated at run time and served on 127.0.0.1:
 *
 * - `/`: the access page; its code is drawn only on a canvas (coloured blocks
 *   and the digits beside them), never in the page's text;
 * - `/form`: the application form (text, select, radio, date, checkbox and
 *   the access code);
 * - `POST /submit`: checks every field, then answers with the confirmation
 *   page and a reference number the server issued (or a refusal naming the
 *   wrong fields).
 */
import { randomInt } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { accessCodeLength, blockGap, blockSize, digitColours } from "./access-code.js";
import { applicant } from "./task.js";

/** A running scenario. */
export interface ScenarioSite {
  /** `http://127.0.0.1:<port>/`: the access page. */
  url: string;
  /** The code drawn on the access page. */
  accessCode: string;
  /** Every reference number the server issued, in order (one per accepted application). */
  issuedReferences: string[];
  /** Every refused submission: the fields that were wrong. */
  refusals: string[][];
  close(): Promise<void>;
}

const style = `<style>body{font:16px system-ui,sans-serif;margin:32px;max-width:640px}label{display:block;margin:10px 0}</style>`;

function accessPage(code: string): string {
  const colours = JSON.stringify([...code].map((digit) => `rgb(${digitColours[Number(digit)]!.join(",")})`));
  // The script holds colours and shapes only: the digits are drawn as paths, so no digit of the code is text anywhere.
  const width = accessCodeLength * (blockSize + blockGap) + 24;
  return `<!doctype html><html lang="en"><title>Northwind permits: access</title>${style}
<h1>Northwind permit office</h1>
<p>Your one-time access code is shown in the image below. You need it to apply.</p>
<canvas id="code" width="${width}" height="${blockSize + 64}" role="img" aria-label="Access code image"></canvas>
<p><a href="/form">Continue to the application form</a></p>
<script>
const colours = ${colours};
const strokes = ${JSON.stringify(digitStrokes(code))};
const context = document.getElementById("code").getContext("2d");
context.fillStyle = "#fff";
context.fillRect(0, 0, context.canvas.width, context.canvas.height);
colours.forEach((colour, index) => {
  const left = 12 + index * ${blockSize + blockGap};
  context.fillStyle = colour;
  context.fillRect(left, 8, ${blockSize}, ${blockSize});
  context.strokeStyle = "#000";
  context.lineWidth = 3;
  context.beginPath();
  for (const [x1, y1, x2, y2] of strokes[index]) {
    context.moveTo(left + 8 + x1 * 20, ${blockSize + 16} + y1 * 36);
    context.lineTo(left + 8 + x2 * 20, ${blockSize + 16} + y2 * 36);
  }
  context.stroke();
});
</script>`;
}

/** Seven-segment strokes of each digit (unit square, y down), so people can read the code under its blocks. */
function digitStrokes(code: string): number[][][] {
  const segments: Record<string, number[]> = {
    a: [0, 0, 1, 0], b: [1, 0, 1, 0.5], c: [1, 0.5, 1, 1], d: [0, 1, 1, 1], e: [0, 0.5, 0, 1], f: [0, 0, 0, 0.5], g: [0, 0.5, 1, 0.5],
  };
  const lit = ["abcdef", "bc", "abged", "abgcd", "fgbc", "afgcd", "afgedc", "abc", "abcdefg", "abcdfg"];
  return [...code].map((digit) => [...lit[Number(digit)]!].map((segment) => segments[segment]!));
}

const formPage = `<!doctype html><html lang="en"><title>Northwind permits: application</title>${style}
<h1>Permit application</h1>
<form method="post" action="/submit">
  <label>Full name <input name="fullName" autocomplete="off"></label>
  <label>Country <select name="country"><option value="">Choose…</option><option>France</option><option>Portugal</option><option>Spain</option></select></label>
  <fieldset><legend>Permit type</legend>
    <label><input type="radio" name="permit" value="Day pass"> Day pass</label>
    <label><input type="radio" name="permit" value="Annual permit"> Annual permit</label>
  </fieldset>
  <label>Start date <input type="date" name="startDate"></label>
  <label><input type="checkbox" name="terms" value="yes"> I accept the terms</label>
  <label>Access code <input name="accessCode" inputmode="numeric" autocomplete="off"></label>
  <button>Submit application</button>
</form>`;

function confirmationPage(reference: string): string {
  return `<!doctype html><html lang="en"><title>Northwind permits: confirmation</title>${style}
<h1>Application received</h1>
<p>Thank you, ${applicant.fullName}. Your application is confirmed.</p>
<p>Reference number: <strong>${reference}</strong></p>`;
}

function refusalPage(wrong: string[]): string {
  return `<!doctype html><html lang="en"><title>Northwind permits: refused</title>${style}
<h1>Application refused</h1><p>These fields are wrong: ${wrong.join(", ")}.</p><p><a href="/form">Back to the form</a></p>`;
}

const referenceAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Starts the scenario on 127.0.0.1 at a free port, with a fresh access code. */
export async function startScenarioSite(): Promise<ScenarioSite> {
  const accessCode = Array.from({ length: accessCodeLength }, () => randomInt(10)).join("");
  const issuedReferences: string[] = [];
  const refusals: string[][] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const send = (status: number, html: string) => response.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(html);
    if (request.method === "GET" && path === "/") return send(200, accessPage(accessCode));
    if (request.method === "GET" && path === "/form") return send(200, formPage);
    if (request.method === "POST" && path === "/submit") {
      let body = "";
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => (body += chunk.length + body.length > 16_384 ? "" : chunk));
      request.on("end", () => {
        const form = new URLSearchParams(body);
        const expected: Record<string, string> = { ...applicant, terms: "yes", accessCode };
        const wrong = Object.keys(expected).filter((name) => (form.get(name) ?? "").trim() !== expected[name]);
        if (wrong.length > 0) {
          refusals.push(wrong);
          return send(400, refusalPage(wrong));
        }
        const reference = `NW-${Array.from({ length: 6 }, () => referenceAlphabet[randomInt(referenceAlphabet.length)]).join("")}`;
        issuedReferences.push(reference);
        send(200, confirmationPage(reference));
      });
      return;
    }
    send(404, `<!doctype html><title>Not found</title><p>Not found</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    accessCode,
    issuedReferences,
    refusals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
