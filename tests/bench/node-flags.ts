// The node flags of a package.json script (`tsx --max-semi-space-size=64 … scripts/worker.ts`), so that
// what the bench starts runs as `npm run <script>` does.
import { readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../../scripts/lib/database";

export function nodeFlagsOfScript(name: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const command = manifest.scripts[name];
  if (!command?.startsWith("tsx ")) throw new Error(`package.json has no tsx script "${name}"`);
  return command.split(/\s+/).filter((part) => part.startsWith("--"));
}
