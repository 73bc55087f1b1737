// Not in playwright-core's exports map: by path (types only; nothing is loaded).
import type { Protocol } from "../../node_modules/playwright-core/types/protocol.js";
import { describe, expect, it } from "vitest";
import type { CdpCommands, CdpEvents } from "../../src/cdp/protocol.js";

/**
 * The CDP client's hand-written protocol types (src/cdp/protocol.ts) against
 * the full protocol as playwright-core types it (a test may import it; src/cdp
 * may not). Checked by the type checker (`npm run typecheck`): what we send
 * must be valid parameters, and what the browser answers or emits must fit
 * our result and event types. A mismatch names the method in the error.
 */
type Fits<From, To> = [From] extends [To] ? true : false;
/** The keys of `Checks` whose check is false (never when all hold). */
type Failing<Checks> = { [Key in keyof Checks]: Checks[Key] extends true ? never : Key }[keyof Checks];

type ParamsSent = { [Method in keyof CdpCommands]: Fits<CdpCommands[Method]["params"], Protocol.CommandParameters[Method]> };
type ResultsReceived = { [Method in keyof CdpCommands]: Fits<Protocol.CommandReturnValues[Method], CdpCommands[Method]["result"]> };
type EventsReceived = { [Event in keyof CdpEvents]: Fits<Protocol.EventMap[Event][0], CdpEvents[Event]> };

const paramsSent: [Failing<ParamsSent>] extends [never] ? "all fit" : Failing<ParamsSent> = "all fit";
const resultsReceived: [Failing<ResultsReceived>] extends [never] ? "all fit" : Failing<ResultsReceived> = "all fit";
const eventsReceived: [Failing<EventsReceived>] extends [never] ? "all fit" : Failing<EventsReceived> = "all fit";

describe("CDP protocol types (src/cdp/protocol.ts)", () => {
  it("fit the protocol's own types (checked at compile time)", () => {
    expect([paramsSent, resultsReceived, eventsReceived]).toEqual(["all fit", "all fit", "all fit"]);
  });
});
