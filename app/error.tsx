"use client";
import { ErrorPanel } from "@/components/errors/error-panel";

// Errors outside the console shell: the sign-in and forbidden pages, and the shell's own layout.
export default function AppError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <main className="px-4">
      <ErrorPanel error={error} retry={retry} />
    </main>
  );
}
