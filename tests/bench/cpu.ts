// CPU time of the bench's processes, from /proc (Linux): where the machine's cores go.
import { readdir, readFile } from "node:fs/promises";

/**
 * CPU seconds (user + system) a process has used so far; with `reapedChildren`, also those of its children
 * that have exited and been waited for (the kernel adds them to the parent's cutime and cstime).
 */
export async function cpuSeconds(
  pid: number | undefined,
  { reapedChildren = false }: { reapedChildren?: boolean } = {},
): Promise<number> {
  if (!pid) return 0;
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime, stime, cutime, cstime, in clock ticks (100/s)
  const ticks = (reapedChildren ? [11, 12, 13, 14] : [11, 12]).map((i) => Number(fields[i]));
  return ticks.reduce((sum, t) => sum + t, 0) / 100;
}

/** CPU seconds of this process so far. */
export function ownCpuSeconds(): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6;
}

/**
 * CPU seconds of the PostgreSQL server listening on `port` and its backends, those that have exited too
 * (a connection closed between two readings would otherwise take its CPU out of the second); other
 * servers on the machine not counted.
 */
export async function postgresCpuSeconds(port: string): Promise<number> {
  const pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
  const read = (pid: string, file: string) => readFile(`/proc/${pid}/${file}`, "utf8").catch(() => "");
  const postgres = [];
  for (const pid of pids) {
    if ((await read(pid, "comm")).trim() !== "postgres") continue;
    const stat = await read(pid, "stat");
    const parent = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1] ?? "";
    postgres.push({ pid, parent, args: (await read(pid, "cmdline")).split("\0") });
  }
  const server = postgres.find((p) => p.args.includes("-p") && p.args[p.args.indexOf("-p") + 1] === port);
  if (!server) return 0;
  const ours = postgres.filter((p) => p.pid === server.pid || p.parent === server.pid);
  const seconds = await Promise.all(
    ours.map((p) => cpuSeconds(Number(p.pid), { reapedChildren: p.pid === server.pid })),
  );
  return seconds.reduce((sum, s) => sum + s, 0);
}
