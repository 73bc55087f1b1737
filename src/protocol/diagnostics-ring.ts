/**
 * The bounded ring of diagnostics events both engines keep per session. Web standards only.
 */
import { limits } from "./limits.js";
import type { DiagnosticsEvent, DiagnosticsResult } from "./results.js";
import { truncateUtf8 } from "./utf8.js";

/** A bounded ring of diagnostics events (console, errors, failed requests, dialogs). */
export class DiagnosticsRing {
  private readonly events: DiagnosticsEvent[] = [];
  private nextSeq = 1;
  private droppedCount = 0;

  constructor(private readonly capacity: number = limits.diagnostics.ring) {}

  push(event: Omit<DiagnosticsEvent, "seq" | "at">): void {
    const text = event.text === undefined ? undefined : truncateUtf8(event.text, limits.diagnostics.consoleTextBytes).text;
    this.events.push({ ...event, ...(text === undefined ? {} : { text }), seq: this.nextSeq++, at: new Date().toISOString() });
    if (this.events.length > this.capacity) {
      this.events.shift();
      this.droppedCount++;
    }
  }

  /** Events with `seq >= since`. */
  read(since = 0): DiagnosticsResult {
    return { events: this.events.filter((event) => event.seq >= since), dropped: this.droppedCount, nextSeq: this.nextSeq };
  }
}
