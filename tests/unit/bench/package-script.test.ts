// The bench runs reconciliation in its own process and starts workers itself: both must run with the node
// flags `npm run worker` gives the worker, or the bench measures a process nobody deploys.
import { describe, expect, it } from "vitest";
import { packageScript } from "../../bench/package-script";

const nodeFlagsOfScript = (name: string) => packageScript(name).nodeFlags;

describe("node flags of the package scripts", () => {
  it("the worker runs with a young generation of 64 MiB semi-spaces (reconciliation pages)", () => {
    expect(nodeFlagsOfScript("worker")).toEqual(["--max-semi-space-size=64", "--conditions=react-server"]);
  });

  it("the bench runs with the worker's flags", () => {
    expect(nodeFlagsOfScript("bench")).toEqual(nodeFlagsOfScript("worker"));
  });

  it("a script that is not a tsx command is refused", () => {
    expect(() => nodeFlagsOfScript("lint")).toThrow(/no tsx script "lint"/);
    expect(() => nodeFlagsOfScript("missing")).toThrow(/no tsx script "missing"/);
  });
});
