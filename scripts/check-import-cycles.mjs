#!/usr/bin/env node
// Folder-level import cycles under lib/. Each top-level folder of lib/ is a node (lib/operations/list/x.ts
// belongs to "operations"); a file directly in lib/ is a node of its own ("db.ts"). Every import of a
// lib file (`@/lib/...` or relative, static, dynamic, type-only or re-export) is an edge between the
// nodes of the two files. Prints the strongly connected components with more than one node, and the
// file-level imports behind each edge inside them; exits 1 when there is one.
// Usage: node scripts/check-import-cycles.mjs [--graph]
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const libDir = path.join(root, "lib");
const skipped = new Set(["generated"]);

function sourceFiles(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (dir === libDir && skipped.has(name)) continue;
      found.push(...sourceFiles(full));
    } else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) {
      found.push(full);
    }
  }
  return found;
}

/** "operations" for lib/operations/list/x.ts, "db.ts" for lib/db.ts, null outside lib/ or in a skipped folder. */
function nodeOf(file) {
  const relative = path.relative(libDir, file);
  if (relative.startsWith("..")) return null;
  const first = relative.split(path.sep)[0];
  if (first === undefined || skipped.has(first)) return null;
  return first;
}

const specifierPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

function importedFile(fromFile, specifier) {
  let base;
  if (specifier.startsWith("@/")) base = path.join(root, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(fromFile), specifier);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return base;
}

const edges = new Map(); // node -> Map(node -> [file import, ...])
for (const file of sourceFiles(libDir)) {
  const from = nodeOf(file);
  if (from === null) continue;
  const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
  for (const match of text.matchAll(specifierPattern)) {
    const target = importedFile(file, match[1]);
    if (target === null) continue;
    const to = nodeOf(target);
    if (to === null || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const targets = edges.get(from);
    if (!targets.has(to)) targets.set(to, []);
    targets.get(to).push(`${path.relative(root, file)} -> ${match[1]}`);
  }
}

// Tarjan's strongly connected components.
const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])])].sort();
const index = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
const components = [];
let counter = 0;
function visit(node) {
  index.set(node, counter);
  low.set(node, counter);
  counter += 1;
  stack.push(node);
  onStack.add(node);
  for (const next of [...(edges.get(node)?.keys() ?? [])].sort()) {
    if (!index.has(next)) {
      visit(next);
      low.set(node, Math.min(low.get(node), low.get(next)));
    } else if (onStack.has(next)) {
      low.set(node, Math.min(low.get(node), index.get(next)));
    }
  }
  if (low.get(node) === index.get(node)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  }
}
for (const node of nodes) if (!index.has(node)) visit(node);

if (process.argv.includes("--graph")) {
  for (const node of nodes) {
    const targets = [...(edges.get(node)?.keys() ?? [])].sort();
    if (targets.length > 0) console.log(`${node} -> ${targets.join(", ")}`);
  }
}

if (components.length === 0) {
  console.log(`lib/: no folder-level import cycle (${nodes.length} folders and files).`);
  process.exit(0);
}
for (const component of components) {
  console.log(`cycle among: ${component.join(", ")}`);
  const members = new Set(component);
  for (const from of component) {
    for (const [to, imports] of edges.get(from) ?? []) {
      if (!members.has(to)) continue;
      console.log(`  ${from} -> ${to}`);
      for (const line of imports) console.log(`    ${line}`);
    }
  }
}
process.exit(1);
