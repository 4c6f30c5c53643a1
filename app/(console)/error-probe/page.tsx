import { notFound } from "next/navigation";
import { requireSignedIn } from "@/lib/auth/session";
import { getEnv } from "@/lib/env";
import { toPageError } from "@/lib/errors/database";

// Exists only when E2E_ERROR_PROBE=1 (the end-to-end tests): fails on purpose so the tests can see the
// error page of a production build, which they cannot make fail otherwise. A 404 everywhere else.
export default async function ErrorProbePage({
  searchParams,
}: {
  searchParams: Promise<{ kind?: string | string[] }>;
}) {
  if (!getEnv().E2E_ERROR_PROBE) notFound();
  await requireSignedIn();
  const { kind } = await searchParams;
  if (kind === "database") {
    // Shaped as Prisma reports an unreachable server, through the same mapping as a real one.
    const unreachable = Object.assign(new Error("Can't reach database server (error probe)"), {
      code: "P1001",
    });
    throw await toPageError(unreachable);
  }
  throw new Error("Error probe: a failure on purpose");
}
