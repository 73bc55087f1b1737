/**
 * Starts the worker in this runtime (Deno, Bun): local Chromium behind
 * createBrowserWorker + createWorkerHttpServer on 127.0.0.1, port chosen by
 * the system. Prints `{ "port": n }` once listening; stops when its standard
 * input closes.
 */
const args = globalThis.Deno?.args ?? globalThis.process.argv.slice(2);
const config = JSON.parse(args[0]);
const { PlaywrightBrowserAdapter, BrowserSessionManager, createLocalProvider } = await import("station-browser-use/playwright");
const { createBrowserWorker, createWorkerHttpServer } = await import("station-browser-use/worker");
const adapter = new PlaywrightBrowserAdapter({ provider: createLocalProvider({ executablePath: config.chromium, tempRootDir: config.tempRootDir }) });
const manager = new BrowserSessionManager(adapter, 2, { ownsAdapter: true });
const worker = createBrowserWorker({ manager, token: config.token, tenants: { [config.apiKey]: "runtime" }, stationId: config.stationId });
const server = createWorkerHttpServer(worker);
await new Promise((resolve, reject) => {
  server.once("error", reject);
  server.listen(0, "127.0.0.1", resolve);
});
console.log(JSON.stringify({ port: server.address().port }));
for await (const _chunk of globalThis.Deno?.stdin.readable ?? globalThis.process.stdin) {
  // Nothing is sent; the loop ends when the parent closes standard input.
}
await new Promise((resolve) => server.close(resolve));
await manager.close();
globalThis.Deno ? globalThis.Deno.exit(0) : globalThis.process.exit(0);
