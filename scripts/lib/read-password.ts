// A password for a command-line tool without putting it on the command line, where the shell history,
// npm's echo of the command (a job's log) and `ps` would show it: from standard input, typed at a
// terminal without echo, or the first line of whatever is piped in.
import { createInterface } from "node:readline";
import { Writable } from "node:stream";

export class PasswordInputError extends Error {
  override name = "PasswordInputError";
}

/** At a terminal: asked twice without echo (prompts on stderr). Otherwise: stdin's first line, without its end. */
export async function readPasswordFromStdin(input: NodeJS.ReadStream = process.stdin): Promise<string> {
  if (input.isTTY) {
    const first = await askHidden(input, "Password: ");
    const again = await askHidden(input, "Password again: ");
    if (first !== again) throw new PasswordInputError("The two passwords differ: nothing changed.");
    return first;
  }
  const lines = createInterface({ input, crlfDelay: Infinity, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  throw new PasswordInputError("--password-stdin: standard input ended before a line: nothing changed.");
}

function askHidden(input: NodeJS.ReadStream, question: string): Promise<string> {
  // readline echoes what is typed to its output: a sink here, so nothing typed is shown.
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input, output: sink, terminal: true });
  process.stderr.write(question);
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (result: () => void) => {
      if (settled) return;
      settled = true;
      rl.close();
      process.stderr.write("\n");
      result();
    };
    rl.once("line", (line) => settle(() => resolve(line)));
    // Ctrl-C (raw mode turns it into an event) or Ctrl-D: give up, changing nothing
    rl.once("SIGINT", () => settle(() => reject(new PasswordInputError("Cancelled: nothing changed."))));
    rl.once("close", () => settle(() => reject(new PasswordInputError("Cancelled: nothing changed."))));
  });
}
