/**
 * station-browser-use/agent on Node (the exports map's `node` condition; Deno
 * and Bun take `./agent.ts` as every other runtime): the same entry, with the
 * client's JSON calls over `node:http` instead of fetch (see
 * `src/node/http-post.ts`) for clients not given a `fetch` of their own.
 */
import { installDefaultPost } from "./client/http-post.js";
import { nodeHttpPost } from "./node/http-post.js";

installDefaultPost(nodeHttpPost);

export * from "./agent.js";
