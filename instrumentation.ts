// Runs once when the server starts: a bad configuration or an unreachable database stops start-up
// with one line that names the problem instead of failing on the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { exitOnStartupProblem } = await import("@/lib/startup");
    await exitOnStartupProblem();
  }
}
