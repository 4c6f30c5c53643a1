"use client";
import { ErrorPanel } from "@/components/errors/error-panel";

// A console page failed: the shell (navigation, user menu) stays usable around the message.
export default function ConsoleError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorPanel error={error} retry={retry} />;
}
