import { describe, expect, it } from "vitest";
import packageJson from "../../package.json" with { type: "json" };
import { cliUsage, cliVersion, parseCliCommand } from "../../src/worker/cli-commands.js";
import { UsageError } from "../../src/worker/cli-options.js";

describe("the station-browser-use bin's first argument", () => {
  it("lists every command in --help and prints the package version", () => {
    expect(parseCliCommand(["--help"])).toEqual({ kind: "help" });
    expect(parseCliCommand(["-h"])).toEqual({ kind: "help" });
    expect(parseCliCommand(["--version"])).toEqual({ kind: "version" });
    expect(parseCliCommand(["-v"])).toEqual({ kind: "version" });
    expect(cliVersion).toBe(packageJson.version);
    expect(cliUsage).toMatch(/^ {2}worker /m);
    expect(cliUsage).toMatch(/^ {2}mcp /m);
    expect(cliUsage).toMatch(/--version/);
  });

  it("hands the rest of the line to the command", () => {
    expect(parseCliCommand(["worker", "--port", "0"])).toEqual({ kind: "command", command: "worker", args: ["--port", "0"] });
    expect(parseCliCommand(["mcp", "--help"])).toEqual({ kind: "command", command: "mcp", args: ["--help"] });
  });

  it("refuses a missing or unknown command, naming the real ones", () => {
    for (const argv of [[], ["serve"], ["--port"], ["toString"], ["__proto__"]]) {
      let thrown: unknown;
      try {
        parseCliCommand(argv);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(argv)).toBeInstanceOf(UsageError);
      expect((thrown as Error).message).toMatch(/the commands are: worker, mcp$/);
    }
  });
});
