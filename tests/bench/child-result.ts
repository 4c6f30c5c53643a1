// Runs a bench script in a fresh Node process against one database and reads the JSON result it prints
// on its last line of output: memory figures are only meaningful in a process that did nothing else.
import { spawn } from "node:child_process";
import path from "node:path";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");

export function runBenchChild<T>(
  script: string,
  databaseUrl: string,
  options: { args?: string[]; nodeFlags?: string[] } = {},
): Promise<T> {
  const name = path.basename(script, ".ts");
  return new Promise<T>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...(options.nodeFlags ?? []),
        "--import",
        "tsx",
        "--conditions=react-server",
        script,
        ...(options.args ?? []),
      ],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${name} exited with ${code}: ${stderr.trim().slice(-2000)}`));
      try {
        resolve(JSON.parse(stdout.trim().split("\n").pop() ?? "") as T);
      } catch {
        reject(new Error(`${name} printed no result: ${stdout.slice(-500)} ${stderr.slice(-500)}`));
      }
    });
  });
}
