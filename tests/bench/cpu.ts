// CPU time of the bench's processes, from /proc (Linux): where the machine's cores go.
import { readdir, readFile } from "node:fs/promises";

/** CPU seconds (user + system) a process has used so far. */
export async function cpuSeconds(pid: number | undefined): Promise<number> {
  if (!pid) return 0;
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
}

/** CPU seconds of this process so far. */
export function ownCpuSeconds(): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6;
}

/** CPU seconds of the PostgreSQL server listening on `port` and its backends (other servers on the machine not counted). */
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
  const seconds = await Promise.all(ours.map((p) => cpuSeconds(Number(p.pid))));
  return seconds.reduce((sum, s) => sum + s, 0);
}
