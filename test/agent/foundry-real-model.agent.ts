import { describe, expect, it } from "vitest";
import { chooseModel } from "../../examples/foundry/model-config.js";
import { runFoundry } from "../../examples/foundry/run-foundry.js";

/**
 * The Foundry scenario with a real model (`npm run test:agent`): the key and
 * model come from the environment as for `npm run demo` (OPENROUTER_API_KEY
 * or OPENAI_API_KEY, FOUNDRY_MODEL, FOUNDRY_BASE_URL; FOUNDRY_API=anthropic
 * with ANTHROPIC_API_KEY). Without a key it is skipped, and says why.
 */
const choice = chooseModel([], process.env);
const skipped = choice.kind === "protocol-only" ? `SKIPPED: ${choice.why}; set one to run a real model` : undefined;
if (skipped !== undefined) console.log(`test:agent ${skipped}`);

describe.skipIf(skipped !== undefined)(`the Foundry agent with a real model (${skipped ?? (choice.kind === "real" ? `${choice.endpoint.model} via ${choice.keyName}` : "")})`, () => {
  it("reads the code from the screenshot, completes the form and reports the reference the server issued, within the budget", async () => {
    if (choice.kind !== "real") return;
    const report = await runFoundry({
      api: choice.api,
      real: choice.endpoint,
      onEvent: (event) => {
        if (event.type === "tool") console.log(`turn ${event.turn}: ${event.record.name} → ${event.record.result.isError ? "error" : "ok"}`);
        if (event.type === "end") console.log(`ended: ${event.ending.reason} — ${event.ending.detail}`);
      },
    });
    expect(report.ending.reason).toBe("done");
    expect(report.turns).toBeLessThanOrEqual(14);
    expect(report.reference).toBe(report.issuedReferences[0]);
    expect(report.verified).toBe(true);
    expect(report.sessionsAtEnd).toBe(0);
  });
});
