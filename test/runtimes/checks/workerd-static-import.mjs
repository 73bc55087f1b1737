/**
 * A Worker that imports a Node-only entry at the top, as a user's Worker
 * would: the bundle must build (the refusal exports the entry's names), and
 * the Worker must fail as it starts, with the refusal's message.
 */
import { PlaywrightBrowserAdapter } from "station-browser-use/playwright";

export default {
  fetch() {
    return new Response(typeof PlaywrightBrowserAdapter);
  },
};
