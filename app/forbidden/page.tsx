import Link from "next/link";

export default function ForbiddenPage() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 px-4 text-center">
      <h1 className="text-2xl font-semibold">Not allowed</h1>
      <p className="text-zinc-600 dark:text-zinc-400">Your role does not give access to that page.</p>
      <Link href="/" className="text-indigo-600 underline dark:text-indigo-400">
        Back to the console
      </Link>
    </main>
  );
}
