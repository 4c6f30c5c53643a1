// npm run user -- <create|list|set-role|disable|reset-password|reset-two-factor> [--email a@b.c] [--role finance] [--password ...]
import { parseArgs } from "node:util";
import { ZodError } from "zod";
import { cliActor } from "../lib/audit/log";
import { roles } from "../lib/auth/permissions";
import { resetTwoFactor } from "../lib/auth/two-factor/enrolment";
import { getDb } from "../lib/db";
import {
  createUser,
  disableUser,
  generatePassword,
  listUsers,
  resetPassword,
  setRole,
} from "../lib/users/service";
import { loadDotEnv } from "./lib/dotenv";

const usage = `usage: npm run user -- <command> [options]
  create          --email a@b.c --role ${roles.join("|")} [--name "..."] [--password ...]
  list
  set-role        --email a@b.c --role ...
  disable         --email a@b.c
  reset-password  --email a@b.c [--password ...]
  reset-two-factor --email a@b.c   (a lost phone: they enrol again at their next sign-in)
Uses DATABASE_URL (or .env). A generated password is printed once when none is given.`;

loadDotEnv();
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    email: { type: "string" },
    role: { type: "string" },
    name: { type: "string" },
    password: { type: "string" },
  },
});

function need(value: string | undefined, flag: string): string {
  if (!value) throw new Error(`--${flag} is required.\n${usage}`);
  return value;
}

async function main(): Promise<void> {
  const [command] = positionals;
  switch (command) {
    case "create": {
      const password = values.password ?? generatePassword();
      const user = await createUser(cliActor, {
        email: need(values.email, "email"),
        role: need(values.role, "role"),
        name: values.name,
        password,
      });
      console.log(`created ${user.email} (${user.role})${values.password ? "" : `, password: ${password}`}`);
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
    case "reset-password": {
      const password = values.password ?? generatePassword();
      await resetPassword(cliActor, need(values.email, "email"), password);
      console.log(
        `password reset for ${values.email}${values.password ? "" : `: ${password}`}; existing sessions ended`,
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
    default:
      throw new Error(usage);
  }
}

try {
  await main();
  process.exit(0);
} catch (error) {
  const message =
    error instanceof ZodError
      ? error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")
      : error instanceof Error
        ? error.message
        : String(error);
  console.error(message);
  process.exit(1);
}
