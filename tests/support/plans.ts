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

/** A row of `EXPLAIN (FORMAT JSON)` output. */
export type ExplainRow = { "QUERY PLAN": [{ Plan: PlanNode }] };

/** `statement` under EXPLAIN ANALYZE with JSON output: it runs. */
export const explainAnalyze = (statement: string) => `EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`;

/** The plan of an EXPLAIN's result rows. */
export const planOf = (rows: ExplainRow[]): PlanNode => rows[0]!["QUERY PLAN"][0].Plan;
