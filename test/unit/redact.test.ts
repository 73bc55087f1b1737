/**
 * The Redactor over every form a browser produces (raw, JSON, HTML,
 * encodeURIComponent, URL path, form encoding, base64 alone or inside a longer
 * run) and over cut-off starts of 8 or more characters, whatever follows them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Redactor, minimumPrefix } from "../../src/redact.js";

const label = "[secret:token]";

/** The forms a browser or a result writes, built here with the platform's own APIs. */
function browserForms(value: string): string[] {
  const utf8 = (text: string) => String.fromCharCode(...new TextEncoder().encode(text));
  const setter = new URL("http://x/");
  setter.pathname = `/${value}`;
  return [
    value,
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
    new URL(`http://x/${value}`).pathname.slice(1),
    setter.pathname.slice(1),
    new URLSearchParams({ v: value }).toString().slice(2),
    btoa(utf8(value)),
  ];
}

/** Secrets without the label's own characters and long enough to be kept (the host's minimum is 4). */
const secret = fc
  .string({ unit: "grapheme", minLength: 4, maxLength: 40 })
  .filter((value) => !/[[\]?#\\/.\t\n\r]/.test(value) && !/^[\x00-\x20]|[\x00-\x20]$/.test(value));
const around = fc.string({ maxLength: 30 }).filter((text) => !/[[\]]/.test(text));

function redactorFor(value: string): Redactor {
  const redactor = new Redactor();
  redactor.add(value, label);
  return redactor;
}

describe("Redactor", () => {
  it("replaces each form a browser produces, wherever it sits in the text", () => {
    fc.assert(
      fc.property(secret, around, around, (value, before, after) => {
        const redactor = redactorFor(value);
        for (const form of browserForms(value)) {
          const out = redactor.apply(`${before}${form}${after}`);
          expect(out).toContain(label);
          expect(out).not.toContain(form);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("replaces a base64 run that holds the value at any byte offset (Basic auth, data: URLs)", () => {
      const letters = (minLength: number, maxLength: number, from: string) => fc.string({ unit: fc.constantFrom(...from), minLength, maxLength });
    // The value and the bytes around it use different letters, so their base64 runs cannot repeat each other.
    const lower = "abcdefghijklmnopqrstuvwxyz -";
    const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:";
    fc.assert(
      fc.property(letters(12, 40, lower), letters(0, 8, upper), letters(0, 8, upper), (value, before, after) => {
        const redactor = redactorFor(value);
        const bytes = [...new TextEncoder().encode(`${before}${value}${after}`)];
        const out = redactor.apply(btoa(String.fromCharCode(...bytes)));
        expect(out).toContain(label);
        // No run of the value's own base64 (at its offset) remains.
        const offset = new TextEncoder().encode(before).length % 3;
        const own = btoa(String.fromCharCode(...new Array<number>(offset).fill(0), ...new TextEncoder().encode(value))).slice(4);
        expect(out).not.toContain(own.slice(0, minimumPrefix));
      }),
      { numRuns: 300 },
    );
  });

  it("replaces any cut-off start of 8 or more characters of any form, whatever follows it", () => {
    fc.assert(
      fc.property(secret.filter((value) => value.length > minimumPrefix), fc.nat(), around, around, (value, cut, before, after) => {
        const redactor = redactorFor(value);
        for (const form of browserForms(value)) {
          if (form.length <= minimumPrefix) continue;
          const start = form.slice(0, minimumPrefix + (cut % (form.length - minimumPrefix)));
          const out = redactor.apply(`${before}${start}${after}`);
          expect(out).not.toContain(form.slice(0, minimumPrefix));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("leaves text alone that holds no form and no start of 8 characters", () => {
    const redactor = redactorFor("hunter2-correct-horse");
    // "hunter2-" is the first 8 characters: a start; "unter2-correct-horse" is no start.
    for (const text of ["Enter your password", "hunter2 is a classic", "hunter2…", "unter2-correct-horse", "aHVudGV"]) {
      expect(redactor.apply(text)).toBe(text);
    }
    expect(redactor.apply("hunter2-XYZ")).toBe(`${label}XYZ`);
    expect(redactor.apply("Sign in → hunter2-corr…")).toBe(`Sign in → ${label}…`);
  });

  it("lets the longest match win where an encoded form starts like the raw one", () => {
    const redactor = redactorFor("s3cret-value!");
    expect(redactor.apply("saved s3cret-value! and s3cret-value%21 and s3cret-val")).toBe(`saved ${label} and ${label} and ${label}`);
  });

  it("names the forms the issue lists, for one value", () => {
    const value = "p ss/wörd+1?&=";
    const redactor = redactorFor(value);
    const text = [
      `json "${JSON.stringify(value).slice(1, -1)}"`,
      `uri ${encodeURIComponent(value)}`,
      `path ${new URL(`http://x/${value}`).pathname}`,
      `form a=${new URLSearchParams({ q: value }).toString().slice(2)}&b=1`,
      `b64 ${btoa(String.fromCharCode(...new TextEncoder().encode(value)))}`,
    ].join("\n");
    const out = redactor.apply(text);
    expect(out).not.toMatch(/w(ö|%C3%B6|\\u00f6)rd/);
    expect(out.match(/\[secret:token\]/g)?.length).toBeGreaterThanOrEqual(5);
  });
});
