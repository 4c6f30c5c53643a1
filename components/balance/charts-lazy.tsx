"use client";
import dynamic from "next/dynamic";
import type { ChartsData } from "./charts";

// Recharts is heavy: it is loaded only on the balance page, in its own chunk, in the browser.
const BalanceCharts = dynamic(() => import("./charts"), {
  ssr: false,
  loading: () => <p className="text-sm text-zinc-500">Loading charts…</p>,
});

export function ChartsLazy({ data }: { data: ChartsData }) {
  return <BalanceCharts data={data} />;
}
