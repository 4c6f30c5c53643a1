/**
 * A page of a newest-first list read with `orderBy: { id: "desc" }, take: size + 1`: its first `size`
 * rows, presented, and `nextBefore`, the cursor of the next (older) page (the last row's id), when the
 * extra row came back.
 */
export function keysetPage<R extends { id: bigint }, T>(
  rows: R[],
  size: number,
  present: (row: R) => T,
): { rows: T[]; nextBefore: string | null } {
  const page = rows.slice(0, size);
  return {
    rows: page.map(present),
    nextBefore: rows.length > size ? (page.at(-1)?.id.toString() ?? null) : null,
  };
}
