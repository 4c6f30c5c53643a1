import { createSandbox } from "../../sandbox/index";

/**
 * Sandbox section of `npm run bench`: seeding speed and list paging over HTTP from a large history.
 * Goals (issue "The platform sandbox › Speed"): seeding 100,000 operations < 10 s; a 1,000-row page
 * out of 1,000,000 operations < 50 ms.
 */

export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  goal?: string;
  ok?: boolean;
}

const TOTAL = 1_000_000;
const FIRST_BATCH = 100_000;
const SAMPLES = 50;

function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

export async function benchSandbox(): Promise<BenchFigure[]> {
  const sandbox = await createSandbox({ port: 0, seedDemoHistory: false });
  try {
    const demo = sandbox.merchants().find((merchant) => merchant.id === "demo");
    if (demo === undefined) throw new Error("demo merchant missing");
    await patch(sandbox.url, { maxTake: 1000 });

    const firstMs = await seed(sandbox.url, FIRST_BATCH);
    const restStarted = performance.now();
    const remaining = TOTAL - FIRST_BATCH;
    for (let done = 0; done < remaining; done += 300_000)
      await seed(sandbox.url, Math.min(300_000, remaining - done));
    const restMs = performance.now() - restStarted;

    const figures: BenchFigure[] = [
      {
        name: "sandbox: seed 100,000 operations",
        value: round(firstMs / 1000),
        unit: "s",
        goal: "< 10 s",
        ok: firstMs < 10_000,
      },
      {
        name: `sandbox: seed up to ${TOTAL.toLocaleString("en")} operations`,
        value: round((firstMs + restMs) / 1000),
        unit: "s",
        goal: "< 60 s",
        ok: firstMs + restMs < 60_000,
      },
    ];
    const skips: Array<[string, number]> = [
      ["first page", 0],
      ["middle", TOTAL / 2],
      ["near the end", TOTAL - 1000],
    ];
    for (const [label, skip] of skips) {
      const timings = await timeList(sandbox.url, demo.token, skip);
      const p50 = percentile(timings, 0.5);
      const p95 = percentile(timings, 0.95);
      figures.push({
        name: `sandbox: list take=1000 ${label} (p50)`,
        value: round(p50),
        unit: "ms",
        goal: "< 50 ms",
        ok: p50 < 50,
      });
      figures.push({
        name: `sandbox: list take=1000 ${label} (p95)`,
        value: round(p95),
        unit: "ms",
        goal: "< 50 ms",
        ok: p95 < 50,
      });
    }
    return figures;
  } finally {
    await sandbox.stop();
  }
}

async function patch(url: string, body: unknown): Promise<void> {
  const res = await fetch(`${url}/__sandbox/merchants/demo`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`PATCH failed: ${res.status} ${await res.text()}`);
}

async function seed(url: string, count: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/__sandbox/seed`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ merchant: "demo", count, days: 365 }),
  });
  if (!res.ok) throw new Error(`seed failed: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - started;
}

async function timeList(url: string, token: string, skip: number): Promise<number[]> {
  const timings: number[] = [];
  const body = JSON.stringify({ skip, take: 1000 });
  for (let sample = 0; sample < SAMPLES + 3; sample++) {
    const started = performance.now();
    const res = await fetch(`${url}/operation/operation/list`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
    });
    const text = await res.text();
    const elapsed = performance.now() - started;
    if (!text.includes('"status":"Success"')) throw new Error(`list failed: ${text.slice(0, 200)}`);
    if (sample >= 3) timings.push(elapsed);
  }
  return timings.sort((a, b) => a - b);
}
