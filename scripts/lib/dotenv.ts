import { existsSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "./database";

/** Loads `.env` from the project root when present; variables already set win. */
export function loadDotEnv(): void {
  const file = path.join(projectRoot, ".env");
  if (existsSync(file)) process.loadEnvFile(file);
}
