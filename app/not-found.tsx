import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Not found" };

export default function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 px-4 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-zinc-600 dark:text-zinc-400">
        There is nothing at this address. It may have been mistyped, or the item no longer exists.
      </p>
      <Link href="/" className="text-indigo-600 underline dark:text-indigo-400">
        Back to the console
      </Link>
    </main>
  );
}
