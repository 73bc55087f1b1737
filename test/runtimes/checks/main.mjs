/**
 * Shared by the Node, Deno and Bun scripts: reads the JSON config from the
 * first argument, runs `check`, prints `{ ok, runtime, ... }` as one JSON
 * line, and exits 1 on a failure.
 */
function runtimeName() {
  if (globalThis.Deno) return `deno ${globalThis.Deno.version.deno}`;
  if (globalThis.Bun) return `bun ${globalThis.Bun.version}`;
  return `node ${globalThis.process.versions.node}`;
}

export async function runMain(check) {
  const args = globalThis.Deno?.args ?? globalThis.process.argv.slice(2);
  const exit = (code) => (globalThis.Deno ? globalThis.Deno.exit(code) : globalThis.process.exit(code));
  try {
    const result = await check(JSON.parse(args[0]));
    console.log(JSON.stringify({ ok: true, runtime: runtimeName(), ...result }));
    exit(0);
  } catch (error) {
    console.log(JSON.stringify({ ok: false, runtime: runtimeName(), error: String(error?.stack ?? error) }));
    exit(1);
  }
}
