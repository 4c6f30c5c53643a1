import type { Metadata } from "next";
import { requireSignedIn } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Home" };

export default async function HomePage() {
  const user = await requireSignedIn();
  return (
    <section className="space-y-2">
      <h1 className="text-2xl font-semibold">Welcome, {user.name ?? user.email}</h1>
      <p className="text-zinc-600 dark:text-zinc-400">
        Signed in as <strong>{user.role}</strong>. Choose a screen above.
      </p>
    </section>
  );
}
