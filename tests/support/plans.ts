// Reading EXPLAIN (ANALYZE, FORMAT JSON) output in tests.

export type PlanNode = {
  "Node Type": string;
  "Actual Rows": number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
};

/** Rows every scan of the plan read (returned plus filtered out). */
export function rowsRead(node: PlanNode): number {
  const own = /Scan/.test(node["Node Type"])
    ? node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)
    : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child), 0);
}
