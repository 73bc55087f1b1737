/**
 * The Worker that runs the checks inside workerd (bundled with the workerd
 * condition, no nodejs_compat). `POST /agent`, `/rest`, `/neutral`, `/refusal`, `/cdp` and `/edge` take
 * the JSON config and answer `{ ok, ... }`.
 */
import { runAgentCheck } from "./agent-check.mjs";
import { runCdpCheck } from "./cdp-check.mjs";
import { runEdgeCheck } from "./edge-check.mjs";
import { runNeutralCheck, runRefusalCheck, runRestCheck } from "./rest-check.mjs";

const checks = { "/agent": runAgentCheck, "/rest": runRestCheck, "/neutral": runNeutralCheck, "/refusal": runRefusalCheck, "/cdp": runCdpCheck, "/edge": runEdgeCheck };

export default {
  async fetch(request) {
    const check = checks[new URL(request.url).pathname];
    if (check === undefined) return new Response("not found", { status: 404 });
    try {
      return Response.json({ ok: true, ...(await check(await request.json())) });
    } catch (error) {
      return Response.json({ ok: false, error: String(error?.stack ?? error) });
    }
  },
};
