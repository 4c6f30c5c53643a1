// `npm run user` as a person or a job runs it. Bad input gets one clear line and the usage: an unknown
// option or `--password` without a value used to end in an uncaught ERR_PARSE_ARGS_* stack trace, and a
// refused name printed a use-intl FORMATTING_ERROR dump and the raw key validation.field.name.invisible
// (the refusal's `char` was not passed to the sentence). A password can come from standard input
// (--password-stdin), never shown; `--password VALUE` still works, with a warning, since npm echoes the
// command line into the job's log and `ps` shows it.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { ZodError } from "zod";
import { cliActor } from "@/lib/audit/log";
import { verifyPassword } from "@/lib/auth/password";
import { getDb } from "@/lib/db";
import { createUser, disableUser } from "@/lib/users/service";
import { projectRoot } from "../../../scripts/lib/database";

async function userCli(args: string[], stdin?: string, env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", path.join(projectRoot, "scripts/user.ts"), ...args],
    { cwd: projectRoot, env, stdio: ["pipe", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(stdin ?? "");
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}

const email = () => `cli-${randomUUID()}@test.local`;
const storedHash = async (address: string) =>
  (await getDb().user.findUnique({ where: { email: address }, omit: { passwordHash: false } }))?.passwordHash;

/** A refusal: exit 1, the given first line, no stack trace, no use-intl dump, no raw catalog key. */
function expectRefusal(result: { code: number | null; stderr: string }, firstLine: string | RegExp) {
  expect(result.code).toBe(1);
  const [first] = result.stderr.split("\n");
  if (typeof firstLine === "string") expect(first).toBe(firstLine);
  else expect(first).toMatch(firstLine);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr).not.toMatch(/ERR_PARSE_ARGS|FORMATTING_ERROR|validation\.field|admin\.users/);
}

describe("npm run user: bad input", () => {
  it.each([
    [
      "an unknown option",
      ["create", "--emial", "a@test.local", "--role", "finance"],
      /^Unknown option '--emial'/,
    ],
    [
      "--password without its value",
      ["create", "--email", "a@test.local", "--password"],
      /^Option '--password <value>' argument missing/,
    ],
    ["no command", [], "A command is required."],
    ["an unknown command", ["remove", "--email", "a@test.local"], "Unknown command 'remove'."],
    ["a missing --email", ["create", "--role", "finance"], "--email is required."],
    [
      "both password options",
      ["create", "--email", "a@test.local", "--role", "finance", "--password", "x", "--password-stdin"],
      "--password and --password-stdin: give one of them.",
    ],
  ])(
    "refuses %s with one line and the usage",
    async (_, args, firstLine) => {
      const result = await userCli(args);
      expectRefusal(result, firstLine);
      expect(result.stderr).toContain("\nusage: npm run user -- <command> [options]\n");
      expect(result.stdout).toBe("");
    },
    60_000,
  );

  it("refuses a name with a bidi override, naming the option and the character, and creates nothing", async () => {
    const address = email();
    const result = await userCli(
      ["create", "--email", address, "--role", "finance", "--name", "Eve\u202Egnp.exe", "--password-stdin"],
      "a-long-enough-password\n",
    );
    expectRefusal(result, "--name: The name contains invisible or control characters (U+202E).");
    expect(result.stderr).toBe("--name: The name contains invisible or control characters (U+202E).\n");
    expect(await storedHash(address)).toBeUndefined();
  }, 60_000);

  it.each([
    [
      ["set-role", "--email", "nobody@test.local", "--role", "boss"],
      "--role: must be one of: admin, finance, approver, support",
    ],
    [["disable", "--email", "not-an-email"], "--email: must be an email address"],
    [
      ["create", "--email", "short@test.local", "--role", "support", "--password-stdin"],
      "--password: must be at least 12 characters",
    ],
  ])(
    "names the option a refused value came from: %j",
    async (args, line) => {
      const result = await userCli(args, "short\n");
      expectRefusal(result, line);
    },
    60_000,
  );
});

describe("npm run user: passwords", () => {
  it("creates a user and resets the password from standard input, never printing it", async () => {
    const address = email();
    const created = await userCli(
      ["create", "--email", address, "--role", "finance", "--password-stdin"],
      "first-password-from-stdin\n",
    );
    expect(created).toEqual({ code: 0, stdout: `created ${address} (finance)\n`, stderr: "" });
    expect(await verifyPassword((await storedHash(address))!, "first-password-from-stdin")).toBe(true);

    // one line is read, its line end (CRLF too) left out; what follows is not part of it
    const reset = await userCli(
      ["reset-password", "--email", address, "--password-stdin"],
      "second password, spaces kept\r\nnot this line\n",
    );
    expect(reset).toEqual({
      code: 0,
      stdout: `password reset for ${address}; existing sessions ended\n`,
      stderr: "",
    });
    expect(await verifyPassword((await storedHash(address))!, "second password, spaces kept")).toBe(true);
  }, 60_000);

  it("refuses --password-stdin with nothing on standard input, changing nothing", async () => {
    const address = email();
    const result = await userCli(["create", "--email", address, "--role", "finance", "--password-stdin"], "");
    expectRefusal(result, "--password-stdin: standard input ended before a line: nothing changed.");
    expect(await storedHash(address)).toBeUndefined();
  }, 60_000);

  it("still takes --password VALUE, with a warning and without printing the password", async () => {
    const address = email();
    const result = await userCli([
      "create",
      "--email",
      address,
      "--role",
      "support",
      "--password",
      "on-the-command-line",
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "warning: --password shows the password in the shell history, npm's echo of the command and ps; use --password-stdin\n",
    );
    expect(result.stdout).toBe(`created ${address} (support)\n`);
    expect(await verifyPassword((await storedHash(address))!, "on-the-command-line")).toBe(true);
  }, 60_000);

  it("prints a generated password once when given none", async () => {
    const address = email();
    const result = await userCli(["create", "--email", address, "--role", "support"]);
    const [, generated] = /, password: (\S+)\n$/.exec(result.stdout) ?? [];
    expect([result.code, result.stderr]).toEqual([0, ""]);
    expect(await verifyPassword((await storedHash(address))!, generated!)).toBe(true);
  }, 60_000);
});

// Audit of user administration: a disabled user could not be brought back, and a second `disable`
// moved the disable time and the session version on again and wrote a second audit entry.
describe("npm run user: disable and enable", () => {
  it("enables a disabled user, refuses an active one; refuses to disable twice", async () => {
    const address = email();
    await createUser(cliActor, { email: address, role: "finance", password: "a-long-enough-password" });
    await disableUser(cliActor, address);
    const disabled = await getDb().user.findUniqueOrThrow({ where: { email: address } });

    const again = await userCli(["disable", "--email", address]);
    expectRefusal(again, `${address} is already disabled.`);
    expect(await getDb().user.findUniqueOrThrow({ where: { email: address } })).toEqual(disabled);

    expect(await userCli(["enable", "--email", address])).toEqual({
      code: 0,
      stdout: `${address} is enabled and can sign in again\n`,
      stderr: "",
    });
    expect((await getDb().user.findUniqueOrThrow({ where: { email: address } })).disabledAt).toBeNull();
    const entries = await getDb().auditLog.findMany({
      where: { targetId: disabled.id, action: { in: ["user.disable", "user.enable"] } },
      orderBy: { id: "asc" },
      select: { action: true, actorEmail: true, before: true, after: true },
    });
    expect(entries).toEqual([
      { action: "user.disable", actorEmail: "cli", before: { disabled: false }, after: { disabled: true } },
      { action: "user.enable", actorEmail: "cli", before: { disabled: true }, after: { disabled: false } },
    ]);

    expectRefusal(await userCli(["enable", "--email", address]), `${address} is not disabled.`);
    const missing = await userCli(["enable"]);
    expectRefusal(missing, "--email is required.");
    expect(missing.stderr).toMatch(/^ {2}enable +--email a@b\.c/m);
  }, 120_000);
});

describe("lib/users/service: a refusal given to the command line", () => {
  it("words the sentence with its arguments (the refused character) and names the field", async () => {
    const logged = vi.spyOn(console, "error");
    const refusal = await createUser(cliActor, {
      email: email(),
      role: "finance",
      name: "Eve\u202Egnp.exe",
      password: "a-long-enough-password",
    }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ZodError);
    expect((refusal as ZodError).issues).toMatchObject([
      { path: ["name"], message: "The name contains invisible or control characters (U+202E)." },
    ]);
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });
});

// Single sign-on only (--sso-only): a user created with no password at all, who signs in through the
// identity provider; refused while single sign-on is not configured (they could never sign in).
describe("npm run user: create --sso-only", () => {
  const withoutSso: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(withoutSso)) if (name.startsWith("AUTH_OIDC_")) delete withoutSso[name];
  const withSso: NodeJS.ProcessEnv = {
    ...withoutSso,
    AUTH_OIDC_ISSUER: "https://sso.example.com/realms/staff",
    AUTH_OIDC_CLIENT_ID: "paydesk",
    AUTH_OIDC_CLIENT_SECRET: "not-a-real-secret",
  };

  it("creates a user without a password, audited with ssoOnly; the usage lists the flag", async () => {
    const address = email();
    const result = await userCli(
      ["create", "--email", address, "--role", "approver", "--sso-only"],
      "",
      withSso,
    );
    expect(result).toEqual({
      code: 0,
      stdout: `created ${address} (approver), single sign-on only: no password\n`,
      stderr: "",
    });
    const user = await getDb().user.findUniqueOrThrow({
      where: { email: address },
      omit: { passwordHash: false },
    });
    expect(user).toMatchObject({ passwordHash: null, passwordSetById: null });
    expect(
      await getDb().auditLog.findFirstOrThrow({ where: { action: "user.create", targetId: user.id } }),
    ).toMatchObject({ actorEmail: "cli", after: { email: address, role: "approver", ssoOnly: true } });

    const missing = await userCli(["create", "--sso-only"], "", withSso);
    expectRefusal(missing, "--email is required.");
    expect(missing.stderr).toMatch(/^ {2}create +--email a@b\.c .*\[--password-stdin \| --sso-only\]$/m);
  }, 120_000);

  it("is refused while single sign-on is not configured; nothing created", async () => {
    const address = email();
    const result = await userCli(
      ["create", "--email", address, "--role", "finance", "--sso-only"],
      "",
      withoutSso,
    );
    expectRefusal(
      result,
      `Single sign-on is not configured: ${address} could not sign in without a password.`,
    );
    expect(await getDb().user.count({ where: { email: address } })).toBe(0);
  }, 60_000);

  it.each([
    [
      "with --password-stdin",
      ["create", "--role", "finance", "--sso-only", "--password-stdin"],
      "--sso-only creates a user without a password: give no --password or --password-stdin.",
    ],
    ["on another command", ["reset-password", "--sso-only"], "--sso-only is an option of create."],
  ])(
    "is refused %s, with the usage; nothing created",
    async (_what, args, line) => {
      const address = email();
      const result = await userCli([...args, "--email", address], "a-long-enough-password\n", withSso);
      expectRefusal(result, line);
      expect(result.stderr).toContain("\nusage: npm run user -- <command> [options]\n");
      expect(await getDb().user.count({ where: { email: address } })).toBe(0);
    },
    60_000,
  );
});
