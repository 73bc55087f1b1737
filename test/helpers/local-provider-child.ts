/**
 * Child process for the leftovers test: launches local Chromium with its
 * temporary files under the given root, opens one session, prints READY and
 * waits. The parent SIGKILLs it there.
 */
import { createLocalProvider } from "../../src/providers/local/index.js";

const [tempRootDir] = process.argv.slice(2);
if (!tempRootDir) throw new Error("usage: local-provider-child <tempRootDir>");

const provider = createLocalProvider({ tempRootDir });
await provider.create({ openTag: "crash", tenant: "acme" });
process.stdout.write("READY\n");
setInterval(() => undefined, 60_000);
