import { readFileSync } from "node:fs";
import { errorCode } from "./atomic-file.js";

/**
 * On Linux, a process's state letter and `<boot id>:<start time>` from
 * `/proc` (the start time tells a recycled pid from the process recorded);
 * `undefined` elsewhere or when it cannot be read.
 *
 * @example
 * ```ts
 * processStatus(process.pid)?.start; // "3f2c…:123456"
 * ```
 */
export function processStatus(pid: number): { state: string; start: string } | undefined {
  try {
    const bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 2 (the command name) may hold spaces and parentheses: count fields after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const [state, startTime] = [fields[0], fields[19]];
    return bootId && state && startTime ? { state, start: `${bootId}:${startTime}` } : undefined;
  } catch {
    return undefined;
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else. Anything but ESRCH counts as alive.
    return errorCode(error) !== "ESRCH";
  }
}

/**
 * Whether a process recorded earlier (its pid, and `processStatus().start`
 * when it was known) may still run. A zombie (killed, never reaped: common
 * under a container's pid 1) is gone; so is a pid that now names a process
 * started at another time. When nothing but the pid can be checked, a pid in
 * use counts as running.
 *
 * @example
 * ```ts
 * recordedProcessRuns(record.pid, record.processStart); // false once it died
 * ```
 */
export function recordedProcessRuns(pid: number, processStart: string | undefined): boolean {
  if (!isProcessAlive(pid)) return false;
  const status = processStatus(pid);
  if (status === undefined) return true;
  if (status.state === "Z" || status.state === "X") return false;
  return processStart === undefined || status.start === processStart;
}
