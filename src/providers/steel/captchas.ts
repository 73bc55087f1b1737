import type { SolverSignal } from "../../protocol/results.js";
import type { SteelApi } from "./api.js";

/** Task states Steel reports while a captcha is worked on (detected → solving → validating → solved). */
const working = new Set(["detected", "solving", "validating"]);

/**
 * Steel's captcha solver state for a session (`GET /v1/sessions/{id}/captchas/status`,
 * Steel cloud): `solving` while a page is being solved or a task is not done,
 * `failed` when a task failed, `finished` when every task is solved (which
 * does not mean the site let the browser in), `undefined` when Steel saw no
 * captcha. Neutral code.
 */
export async function steelSolverStatus(api: SteelApi, id: string, signal?: AbortSignal): Promise<SolverSignal | undefined> {
  const pages = await api.callOrAbsent({ operation: `captcha status of session ${id}`, mutating: false, signal }, () => api.client.sessions.captchas.status(id));
  if (!Array.isArray(pages) || pages.length === 0) return undefined;
  const states = pages.flatMap((page) => (Array.isArray(page.tasks) ? page.tasks : []).map((task) => String((task as { status?: unknown } | null)?.status ?? "").toLowerCase()));
  const state: SolverSignal["state"] | undefined = pages.some((page) => page.isSolvingCaptcha) || states.some((each) => working.has(each))
    ? "solving"
    : states.some((each) => each === "failed" || each === "error")
      ? "failed"
      : states.length > 0 && states.every((each) => each === "solved")
        ? "finished"
        : undefined;
  return state && { provider: "steel", state };
}
