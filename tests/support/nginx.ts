// deploy/nginx.conf, as shipped, run by the system nginx in front of the given web processes: its ports are
// the only thing changed. nginx at NGINX_PATH or /usr/sbin/nginx (`apt-get install -y nginx-light`).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { projectRoot } from "../../scripts/lib/database";
import { freePort } from "../../scripts/lib/embedded-postgres";
import { waitFor } from "./server-process";

const nginxPath = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

export type Nginx = { url: string; errorLog: () => Promise<string>; stop: () => Promise<void> };

/** The shipped server block with its listen port and its two upstreams' ports replaced. */
async function shippedServerBlock(listen: number, upstreams: [number, number]): Promise<string> {
  const shipped = await readFile(path.join(projectRoot, "deploy/nginx.conf"), "utf8");
  const replacements: [string, string][] = [
    ["listen 8080;", `listen 127.0.0.1:${listen};`],
    ["server 127.0.0.1:5000 ", `server 127.0.0.1:${upstreams[0]} `],
    ["server 127.0.0.1:5001 ", `server 127.0.0.1:${upstreams[1]} `],
  ];
  return replacements.reduce((text, [from, to]) => {
    if (!text.includes(from))
      throw new Error(`deploy/nginx.conf no longer has "${from}": update ${import.meta.filename}`);
    return text.replace(from, to);
  }, shipped);
}

export async function startNginx(upstreams: [number, number]): Promise<Nginx> {
  if (!existsSync(nginxPath))
    throw new Error(`no nginx at ${nginxPath}: apt-get install -y nginx-light, or set NGINX_PATH`);
  const dir = await mkdtemp(path.join(os.tmpdir(), "paydesk-nginx-"));
  const port = await freePort();
  await writeFile(path.join(dir, "paydesk.conf"), await shippedServerBlock(port, upstreams));
  await writeFile(
    path.join(dir, "nginx.conf"),
    `${process.getuid?.() === 0 ? "user root root;\n" : ""}worker_processes 1;
daemon off;
error_log ${dir}/error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path ${dir}/client-body;
    proxy_temp_path ${dir}/proxy;
    include ${dir}/paydesk.conf;
}
`,
  );
  const child = spawn(nginxPath, ["-p", dir, "-c", path.join(dir, "nginx.conf")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    { child, output: () => ({ stdout: "", stderr }) },
    "nginx's first answer",
    () =>
      fetch(`${url}/api/health/live`).then(
        () => true,
        () => false,
      ),
    10_000,
  );
  return {
    url,
    errorLog: () => readFile(path.join(dir, "error.log"), "utf8"),
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGQUIT");
        await once(child, "exit");
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
