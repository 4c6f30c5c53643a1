/** One labelled value of a detail page's definition list. */
export function DetailRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-1 py-1 sm:grid-cols-3">
      <dt className="text-sm text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="break-all text-sm sm:col-span-2">{children}</dd>
    </div>
  );
}
