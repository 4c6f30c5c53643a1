/** The header row of a compact data table: one column heading per label. */
export function HeaderRow({ labels, className }: { labels: readonly string[]; className?: string }) {
  return (
    <tr className={className}>
      {labels.map((label) => (
        <th key={label} className="px-2 py-1">
          {label}
        </th>
      ))}
    </tr>
  );
}
