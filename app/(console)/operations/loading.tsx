export default function OperationsLoading() {
  return (
    <section className="space-y-4" aria-busy="true">
      <h1 className="text-2xl font-semibold">Operations</h1>
      <p className="text-sm text-zinc-500">Loading operations…</p>
    </section>
  );
}
