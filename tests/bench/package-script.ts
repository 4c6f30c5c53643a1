// A package.json script (`tsx --max-semi-space-size=64 … scripts/worker.ts`) as node arguments, so that
// what the bench starts runs as `npm run <script>` does.
import { readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../../scripts/lib/database";

export function packageScript(name: string): { nodeFlags: string[]; file: string } {
  const manifest = JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const command = manifest.scripts[name];
  if (!command?.startsWith("tsx ")) throw new Error(`package.json has no tsx script "${name}"`);
  const parts = command.split(/\s+/).slice(1);
  return {
    nodeFlags: parts.filter((part) => part.startsWith("--")),
    file: parts.find((part) => !part.startsWith("--")) ?? "",
  };
}
