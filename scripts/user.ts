// npm run user -- <create|list|set-role|disable|enable|reset-password|reset-two-factor> [--email a@b.c] [--role finance] [--password-stdin] [--sso-only]
import { parseArgs } from "node:util";
import { ZodError } from "zod";
import { cliActor } from "../lib/audit/log";
import { roles } from "../lib/auth/permissions";
import { resetTwoFactor } from "../lib/auth/two-factor/enrolment";
import { getDb } from "../lib/db";
import {
  createUser,
  disableUser,
  enableUser,
  generatePassword,
  listUsers,
  resetPassword,
  setRole,
} from "../lib/users/service";
import { loadDotEnv } from "./lib/dotenv";
import { readPasswordFromStdin } from "./lib/read-password";

const usage = `usage: npm run user -- <command> [options]
  create           --email a@b.c --role ${roles.join("|")} [--name "..."] [--password-stdin | --sso-only]
                   (--sso-only: no password at all, they sign in with single sign-on; needs AUTH_OIDC_*)
  list
  set-role         --email a@b.c --role ...
  disable          --email a@b.c
  enable           --email a@b.c   (a disabled user signs in again as before)
  reset-password   --email a@b.c [--password-stdin]
  reset-two-factor --email a@b.c   (a lost phone: they enrol again at their next sign-in)
Uses DATABASE_URL (or .env). Without --password-stdin a password is generated and printed once.
--password-stdin reads the password from standard input: asked for without echo at a terminal,
otherwise the first line (printf '%s\\n' "$PASSWORD" | npm run user -- create ... --password-stdin).
(--password VALUE is still accepted but shows the password in the shell history, npm's echo of the
command and ps: do not use it.)`;

/** Bad command-line input: said in one line, then the usage. */
class UsageError extends Error {
  override name = "UsageError";
}

const PASSWORD_ON_COMMAND_LINE =
  "warning: --password shows the password in the shell history, npm's echo of the command and ps; use --password-stdin";

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        email: { type: "string" },
        role: { type: "string" },
        name: { type: "string" },
        password: { type: "string" },
        "password-stdin": { type: "boolean", default: false },
        "sso-only": { type: "boolean", default: false },
      },
    });
  } catch (error) {
    // node:util's own words ("Unknown option '--emial'", "Option '--password <value>' argument missing")
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function main(): Promise<void> {
  const { positionals, values } = parseCommandLine();
  const need = (value: string | undefined, flag: string): string => {
    if (!value) throw new UsageError(`--${flag} is required.`);
    return value;
  };
  /** The password to set, and whether it was generated (then printed once). */
  const password = async (): Promise<{ value: string; generated: boolean }> => {
    if (values["password-stdin"] && values.password !== undefined) {
      throw new UsageError("--password and --password-stdin: give one of them.");
    }
    if (values["password-stdin"]) return { value: await readPasswordFromStdin(), generated: false };
    if (values.password !== undefined) {
      console.error(PASSWORD_ON_COMMAND_LINE);
      return { value: values.password, generated: false };
    }
    return { value: generatePassword(), generated: true };
  };
  const [command, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`Unexpected argument '${extra[0]}'.`);
  const ssoOnly = values["sso-only"];
  if (ssoOnly && command !== "create") throw new UsageError("--sso-only is an option of create.");
  if (ssoOnly && (values["password-stdin"] || values.password !== undefined)) {
    throw new UsageError(
      "--sso-only creates a user without a password: give no --password or --password-stdin.",
    );
  }
  switch (command) {
    case "create": {
      const email = need(values.email, "email");
      const role = need(values.role, "role");
      if (ssoOnly) {
        const user = await createUser(cliActor, { email, role, name: values.name, ssoOnly: true });
        console.log(`created ${user.email} (${user.role}), single sign-on only: no password`);
        return;
      }
      const chosen = await password();
      const user = await createUser(cliActor, { email, role, name: values.name, password: chosen.value });
      console.log(
        `created ${user.email} (${user.role})${chosen.generated ? `, password: ${chosen.value}` : ""}`,
      );
      return;
    }
    case "list":
      for (const u of await listUsers()) {
        console.log(
          `${u.email}\t${u.role}\t${u.disabledAt ? "disabled" : "active"}\tlast sign-in ${u.lastSignInAt?.toISOString() ?? "never"}`,
        );
      }
      return;
    case "set-role": {
      const user = await setRole(cliActor, need(values.email, "email"), need(values.role, "role"));
      console.log(`${user.email} is now ${user.role}`);
      return;
    }
    case "disable":
      await disableUser(cliActor, need(values.email, "email"));
      console.log(`${values.email} is disabled and signed out everywhere`);
      return;
    case "enable": {
      const user = await enableUser(cliActor, need(values.email, "email"));
      console.log(`${user.email} is enabled and can sign in again`);
      return;
    }
    case "reset-password": {
      const email = need(values.email, "email");
      const chosen = await password();
      await resetPassword(cliActor, email, chosen.value);
      console.log(
        `password reset for ${email}${chosen.generated ? `: ${chosen.value}` : ""}; existing sessions ended`,
      );
      return;
    }
    case "reset-two-factor": {
      const email = need(values.email, "email").trim().toLowerCase();
      const user = await getDb().user.findUnique({ where: { email }, select: { id: true } });
      if (!user) throw new Error(`No user with email ${email}.`);
      await resetTwoFactor(cliActor, user.id);
      console.log(`two-factor reset for ${email}; existing sessions ended`);
      return;
    }
    case undefined:
      throw new UsageError("A command is required.");
    default:
      throw new UsageError(`Unknown command '${command}'.`);
  }
}

/** One line per problem: a refused value names its option (`--name: The name contains …`). */
function describe(error: unknown): string {
  if (error instanceof UsageError) return `${error.message}\n${usage}`;
  if (error instanceof ZodError) {
    return error.issues
      .map((issue) =>
        issue.path.length > 0 ? `--${String(issue.path[0])}: ${issue.message}` : issue.message,
      )
      .join("\n");
  }
  return error instanceof Error ? error.message : String(error);
}

loadDotEnv();
try {
  await main();
  process.exit(0);
} catch (error) {
  console.error(describe(error));
  process.exit(1);
}
