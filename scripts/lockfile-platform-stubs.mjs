// The npm registry reachable here serves only linux-x64 builds of native packages, so `npm install`
// leaves other platforms' optional binaries out of package-lock.json and `npm ci` then refuses the
// lockfile. This adds the missing entries with the os/cpu read from their names, so npm skips them
// on every platform they are not for. Run it after changing dependencies: node scripts/lockfile-platform-stubs.mjs
import { readFileSync, writeFileSync } from "node:fs";

const OS = [
  "android",
  "darwin",
  "freebsd",
  "linux",
  "win32",
  "openharmony",
  "sunos",
  "netbsd",
  "openbsd",
  "aix",
  "wasi",
];
const CPU = ["arm64", "x64", "ia32", "arm", "loong64", "ppc64", "riscv64", "s390x", "wasm32"];

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
const added = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/${name}` : `node_modules/${name}`;
    const key = lock.packages[base] ? base : `node_modules/${name}`;
    if (lock.packages[key]) continue;
    const parts = name.split("/").pop().split("-");
    const os = OS.find((o) => parts.includes(o));
    const cpu = CPU.find((c) => parts.includes(c));
    if (!os && !cpu) continue;
    lock.packages[key] = {
      version,
      optional: true,
      ...(os && os !== "wasi" ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
    };
    added.push(`${name}@${version}`);
  }
}
writeFileSync("package-lock.json", JSON.stringify(lock, null, 2) + "\n");
console.log(added.length ? `added ${added.length} platform stubs` : "lockfile complete");
