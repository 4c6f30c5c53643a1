import type { Instrumentation } from "next";

// Runs once when the server starts: a bad configuration or an unreachable database stops start-up
// with one line that names the problem instead of failing on the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { exitOnStartupProblem } = await import("@/lib/startup");
    await exitOnStartupProblem();
  }
}

// Every server error (render, route handler, server action, proxy) logged with the request id and the
// digest the browser shows, so support can find the line the user quotes.
export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ getLog }, { logRequestError }] = await Promise.all([
    import("@/lib/log"),
    import("@/lib/errors/request-error-log"),
  ]);
  logRequestError(getLog(), error, request, context);
};
