/**
 * The session shapes are declared once (src/protocol/sessions.ts): what the
 * manager really hands out parses under them unchanged, and the client's
 * checks are those same schemas.
 */
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { responseSchemas } from "../../src/client/response-schemas.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import * as shapes from "../../src/protocol/sessions.js";
import { FakeAdapter } from "../helpers/fake-adapter.js";
import { FakeClock } from "../helpers/fake-clock.js";

describe("session shapes", () => {
  it("fit what the manager hands out, field for field", async () => {
    const clock = new FakeClock();
    const manager = new BrowserSessionManager(new FakeAdapter(), 2, { clock });
    const info = await manager.open({ openTag: "shape-1", viewport: { width: 800, height: 600 } });
    await manager.perform(info.id, "navigate", "http://127.0.0.1:9/a");
    const grant = await manager.acquireControl(info.id, 10_000);
    const samples: [v.GenericSchema, unknown][] = [
      [shapes.ManagedSessionInfoSchema, manager.list()[0]],
      [shapes.ControlStateSchema, await manager.control(info.id)],
      [shapes.ControlGrantSchema, grant],
      [shapes.CheckpointSchema, await manager.checkpoint(info.id)],
      [shapes.RecordingMetaSchema, await manager.startRecording(info.id)],
      [shapes.LiveFrameSchema, await manager.liveFrame(info.id)],
      [shapes.ReconcileReportSchema, await manager.reconcile({ adopt: false })],
    ];
    for (const [schema, sample] of samples) {
      const parsed = v.safeParse(schema, sample);
      expect(parsed.success, JSON.stringify(sample)).toBe(true);
      expect(parsed.output).toEqual(sample);
      // The schema declares every field the manager sends (loose objects would let an undeclared one through).
      const declared = Object.keys((schema as unknown as { entries: Record<string, unknown> }).entries);
      expect(Object.keys(sample as object).filter((key) => !declared.includes(key))).toEqual([]);
    }
    await manager.close();
  });

  it("are the client's checks: a field of the wrong type is refused, one a newer worker added is kept", () => {
    expect(responseSchemas.open).toBe(shapes.ManagedSessionInfoSchema);
    expect(responseSchemas.recording).toBe(shapes.RecordingMetaSchema);
    const session = { id: "s1", provider: "local", openTag: "t", openedAt: "x", control: { mode: "automation" } };
    expect(v.parse(shapes.ManagedSessionInfoSchema, { ...session, addedLater: 1 })).toEqual({ ...session, addedLater: 1 });
    expect(v.safeParse(shapes.ManagedSessionInfoSchema, { ...session, control: { mode: "robot" } }).success).toBe(false);
    expect(v.safeParse(shapes.ManagedSessionInfoSchema, { ...session, id: "" }).success).toBe(false);
  });
});
