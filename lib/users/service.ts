import "server-only";
import { randomBytes } from "node:crypto";
import { createTranslator } from "use-intl/core";
import { z } from "zod";
import { audit, type Actor, type StaffActor } from "@/lib/audit/log";
import { claimAttempt } from "@/lib/auth/credentials";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { endAllSessions } from "@/lib/auth/session-store";
import { ssoConfigured } from "@/lib/auth/sso";
import { can, rolesWith, type Role } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { issueArguments } from "@/lib/i18n/issues";
import { messagesFor } from "@/lib/i18n/messages";
import {
  changeOwnPasswordSchema,
  createUserSchema,
  emailSchema,
  passwordSchema,
  roleSchema,
} from "@/lib/users/schemas";

/**
 * What went wrong, as a catalog key (admin.users.errors.<code>) with its values; the message is English
 * for the command line. `ssoNotConfigured`: a user without a password is asked for (created single
 * sign-on only, or their password removed) while single sign-on is not configured, so they could never
 * sign in. `noPassword`: the user has no password to remove.
 */
export type UserErrorCode =
  "exists" | "unknownEmail" | "alreadyDisabled" | "notDisabled" | "ssoNotConfigured" | "noPassword";

export class UserError extends Error {
  override name = "UserError";
  constructor(
    readonly code: UserErrorCode,
    readonly values: { email: string },
    message: string,
  ) {
    super(message);
  }
}

/**
 * Why a change is refused from the console (admin.users.errors.<problem>): it would lock the
 * administration out, or it is one an admin must not make on their own account.
 */
export type LockoutProblem =
  "disableSelf" | "changeOwnRole" | "resetOwnPassword" | "removeOwnPassword" | "lastAdmin";

const publicFields = {
  id: true,
  email: true,
  name: true,
  role: true,
  disabledAt: true,
  lastSignInAt: true,
  createdAt: true,
  totpEnrolledAt: true,
} as const;

/**
 * Parses input given to these functions directly (the command line, scripts/user.ts; the server actions
 * validate first, in the user's language). A refusal is thrown with the schemas' catalog keys worded
 * in English, with the sentence's arguments (a length's `minimum`, a custom issue's `params` such as
 * the `char` of a refused invisible character), and `field` as the path of a single value's issues.
 */
function parse<S extends z.ZodType>(schema: S, input: unknown, field?: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const t = createTranslator({ locale: "en", messages: messagesFor("en") });
  const issues = parsed.error.issues.map((issue) => {
    const path = field === undefined ? issue.path : [field, ...issue.path];
    if (!t.has(issue.message as never)) return { ...issue, path };
    return { ...issue, path, message: t(issue.message as never, issueArguments(issue) as never) };
  });
  throw new z.ZodError(issues);
}

export function generatePassword(): string {
  return randomBytes(12).toString("base64url");
}

async function findByEmail(email: string) {
  const user = await getDb().user.findUnique({
    where: { email: parse(emailSchema, email, "email") },
    select: publicFields,
  });
  if (!user) throw new UserError("unknownEmail", { email }, `No user with email ${email}.`);
  return user;
}

const exists = (email: string) =>
  new UserError("exists", { email }, `A user with email ${email} already exists.`);

/**
 * The unique index on User.email refused a row: another creation of the same email committed between
 * the check and the insert (two admins at once). With the pg adapter Prisma names the index in
 * meta.driverAdapterError.cause.constraint; without it, in meta.target.
 */
function isEmailTaken(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2002") return false;
  const meta = error.meta as
    | {
        target?: unknown;
        driverAdapterError?: { cause?: { constraint?: { index?: string; fields?: string[] } } };
      }
    | undefined;
  const constraint = meta?.driverAdapterError?.cause?.constraint;
  const target = meta?.target;
  return (
    constraint?.index === "User_email_key" ||
    constraint?.fields?.includes("email") === true ||
    target === "User_email_key" ||
    (Array.isArray(target) && target.includes("email"))
  );
}

const ssoNotConfigured = (email: string) =>
  new UserError(
    "ssoNotConfigured",
    { email },
    `Single sign-on is not configured: ${email} could not sign in without a password.`,
  );

/**
 * Creates a user with a password, or single sign-on only (`ssoOnly: true`, no password given): then no
 * password at all (passwordHash and passwordSetById null), refused while single sign-on is not
 * configured. Audited as user.create, with `ssoOnly: true` in the entry for the latter.
 */
export async function createUser(
  actor: Actor,
  input: { email: string; role: string; name?: string; password?: string; ssoOnly?: boolean },
) {
  const data = parse(createUserSchema, input);
  const ssoOnly = data.ssoOnly === true;
  if (ssoOnly && !ssoConfigured()) throw ssoNotConfigured(data.email);
  const passwordHash = data.password === undefined ? null : await hashPassword(data.password);
  try {
    return await getDb().$transaction(async (tx) => {
      if (await tx.user.findUnique({ where: { email: data.email }, select: { id: true } })) {
        throw exists(data.email);
      }
      const user = await tx.user.create({
        // Who set the password: the admin creating the user, none from the command line (policy.ts),
        // nobody when there is none.
        data: {
          email: data.email,
          role: data.role,
          name: data.name,
          passwordHash,
          passwordSetById: passwordHash === null ? null : actor.id,
        },
        select: publicFields,
      });
      await audit(tx, actor, {
        action: "user.create",
        targetType: "user",
        targetId: user.id,
        // The name other staff see (approvals, the audit log), when one was given.
        after: {
          email: user.email,
          role: user.role,
          ...(user.name !== null && { name: user.name }),
          ...(ssoOnly && { ssoOnly: true }),
        },
      });
      return user;
    });
  } catch (error) {
    if (isEmailTaken(error)) throw exists(data.email);
    throw error;
  }
}

/**
 * Every user, for the users page and the command line, with whether they have a password and whether an
 * admin set it (an admin who set it can sign in as them: lib/payouts/policy.ts). The hash itself is read
 * only to answer that, and never returned.
 */
export async function listUsers() {
  const users = await getDb().user.findMany({
    select: { ...publicFields, passwordHash: true, passwordSetById: true },
    orderBy: { email: "asc" },
  });
  return users.map(({ passwordHash, passwordSetById, ...user }) => ({
    ...user,
    hasPassword: passwordHash !== null,
    passwordSetByAdmin: passwordHash !== null && passwordSetById !== null,
  }));
}

/** The user an administration action targets, or null. */
export function findUserById(userId: string) {
  return getDb().user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, role: true, disabledAt: true },
  });
}

/** A change refused because it could lock the administration out, or is on oneself (admin.users.errors.<problem>). */
export class LockoutRefused extends Error {
  override name = "LockoutRefused";
  constructor(readonly problem: LockoutProblem) {
    super(`Refused: ${problem}.`);
  }
}

// One lock for every console change of roles and of who is enabled (lib/balance/cached.ts and others
// hold the 73700xx keys next to it).
const USER_ADMINISTRATION_LOCK = 7370012;

/**
 * Refuses, inside the change's transaction, a change that could lock the administration out: on
 * oneself, or taking users.manage from the last enabled user who holds it. `change` is the new role of
 * a role change, or "disable"; a role that keeps users.manage never locks anyone out. The check and the
 * write happen behind one lock, so two admins taking each other's users.manage at once cannot both pass.
 * The command line (scripts/user.ts) passes no `me`: it is the way back in, and checks nothing.
 */
async function refuseLockout(
  tx: Prisma.TransactionClient,
  me: { id: string } | undefined,
  userId: string,
  change: Role | "disable",
) {
  if (!me || (change !== "disable" && can(change, "users.manage"))) return;
  if (userId === me.id) throw new LockoutRefused(change === "disable" ? "disableSelf" : "changeOwnRole");
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${USER_ADMINISTRATION_LOCK})`;
  const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { role: true } });
  if (!can(user.role, "users.manage")) return;
  const otherManagers = await tx.user.count({
    where: { role: { in: rolesWith("users.manage") }, disabledAt: null, id: { not: userId } },
  });
  if (otherManagers === 0) throw new LockoutRefused("lastAdmin");
}

/** The user's sessions, and their sign-ins waiting for a code. */
async function endSignIns(tx: Prisma.TransactionClient, userId: string) {
  await tx.signInChallenge.deleteMany({ where: { userId } });
  await endAllSessions(tx, userId);
}

export async function setRole(actor: Actor, email: string, role: string, me?: { id: string }) {
  const next: Role = parse(roleSchema, role, "role");
  const user = await findByEmail(email);
  return getDb().$transaction(async (tx) => {
    await refuseLockout(tx, me, user.id, next);
    const updated = await tx.user.update({
      where: { id: user.id },
      data: { role: next },
      select: publicFields,
    });
    await audit(tx, actor, {
      action: "user.setRole",
      targetType: "user",
      targetId: user.id,
      before: { role: user.role },
      after: { role: next },
    });
    return updated;
  });
}

/**
 * Disables a user and ends their sessions (deleted, and the session version moves on), and any sign-in
 * waiting for its code. A user already disabled is refused (UserError "alreadyDisabled"): disabling
 * again would move the disable time and the session version and write a second, meaningless entry.
 * The update is conditional, so of two disables at once only one goes through.
 */
export async function disableUser(actor: Actor, email: string, me?: { id: string }) {
  const user = await findByEmail(email);
  const alreadyDisabled = () =>
    new UserError("alreadyDisabled", { email: user.email }, `${user.email} is already disabled.`);
  if (user.disabledAt) throw alreadyDisabled();
  return getDb().$transaction(async (tx) => {
    await refuseLockout(tx, me, user.id, "disable");
    const { count } = await tx.user.updateMany({
      where: { id: user.id, disabledAt: null },
      data: { disabledAt: new Date(), sessionVersion: { increment: 1 } },
    });
    if (count === 0) throw alreadyDisabled();
    await endSignIns(tx, user.id);
    await audit(tx, actor, {
      action: "user.disable",
      targetType: "user",
      targetId: user.id,
      before: { disabled: false },
      after: { disabled: true },
    });
    return tx.user.findUniqueOrThrow({ where: { id: user.id }, select: publicFields });
  });
}

/**
 * Enables a disabled user again: they can sign in with their password (and second factor) as before.
 * Their sessions ended when they were disabled, so there is nothing else to undo. A user who is not
 * disabled is refused (UserError "notDisabled"). Enabling never locks anyone out: no `me` to check.
 */
export async function enableUser(actor: Actor, email: string) {
  const user = await findByEmail(email);
  const notDisabled = () =>
    new UserError("notDisabled", { email: user.email }, `${user.email} is not disabled.`);
  if (!user.disabledAt) throw notDisabled();
  return getDb().$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: user.id, disabledAt: { not: null } },
      data: { disabledAt: null },
    });
    if (count === 0) throw notDisabled();
    await audit(tx, actor, {
      action: "user.enable",
      targetType: "user",
      targetId: user.id,
      before: { disabled: true },
      after: { disabled: false },
    });
    return tx.user.findUniqueOrThrow({ where: { id: user.id }, select: publicFields });
  });
}

/**
 * Sets a new password, clears any lock and ends existing sessions and any sign-in waiting for its code
 * (its password step was passed with the old password). Never one's own from the users page (`me`):
 * that would change a password without the current one, from a session that may not be its owner's.
 * Records who set it (`passwordSetById`: the admin, or null from the command line): the pay-out policy
 * keeps two people apart on one pay-out when one of them set the other's password.
 */
export async function resetPassword(actor: Actor, email: string, password: string, me?: { id: string }) {
  const user = await findByEmail(email);
  if (me && me.id === user.id) throw new LockoutRefused("resetOwnPassword");
  const passwordHash = await hashPassword(parse(passwordSchema, password, "password"));
  await getDb().$transaction(async (tx) => {
    await tx.user.update({
      where: { id: user.id },
      data: {
        passwordHash,
        passwordSetById: actor.id,
        failedSignIns: 0,
        lockedUntil: null,
        sessionVersion: { increment: 1 },
      },
    });
    await endSignIns(tx, user.id);
    await audit(tx, actor, { action: "user.resetPassword", targetType: "user", targetId: user.id });
  });
}

/**
 * Makes a user single-sign-on only: their password is removed (passwordHash and passwordSetById null,
 * so nobody who set it can sign in as them, and the pay-out policy no longer keeps them apart from that
 * person), any lock cleared, and their sessions and any sign-in waiting for its code end (its password
 * step was passed with the removed password). Never one's own from the users page (`me`), and refused
 * while single sign-on is not configured (they could never sign in again) or when they have no password
 * (UserError "noPassword"; the update is conditional, so of two removals at once one is audited).
 * Audited as user.password.remove. A reset (resetPassword) gives them a password again.
 */
export async function removePassword(actor: Actor, email: string, me?: { id: string }) {
  const user = await findByEmail(email);
  if (me && me.id === user.id) throw new LockoutRefused("removeOwnPassword");
  if (!ssoConfigured()) throw ssoNotConfigured(user.email);
  const noPassword = () =>
    new UserError("noPassword", { email: user.email }, `${user.email} has no password to remove.`);
  await getDb().$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: user.id, passwordHash: { not: null } },
      data: {
        passwordHash: null,
        passwordSetById: null,
        failedSignIns: 0,
        lockedUntil: null,
        sessionVersion: { increment: 1 },
      },
    });
    if (count === 0) throw noPassword();
    await endSignIns(tx, user.id);
    await audit(tx, actor, {
      action: "user.password.remove",
      targetType: "user",
      targetId: user.id,
      before: { password: true },
      after: { password: false },
    });
  });
}

/**
 * Why changing one's own password was refused (account.password.errors.<code>): no password to change
 * (the user signs in with single sign-on only), the current password is wrong, or the account is locked
 * by wrong passwords (the sign-in lock: lib/auth/lock-policy.ts).
 */
export type PasswordChangeRefusal = "noPassword" | "wrongCurrent" | "locked";

export type PasswordChangeResult = { ok: true } | { ok: false; code: PasswordChangeRefusal };

/** Whether the user has a password of their own to change (a single-sign-on-only user has none). */
export async function hasOwnPassword(userId: string): Promise<boolean> {
  const user = await getDb().user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  return typeof user?.passwordHash === "string";
}

/**
 * The signed-in user changes their own password, proving the current one. Each try at the current
 * password is an attempt at the account, taken before it is checked exactly as at sign-in
 * (claimAttempt): wrong ones count towards the same lock, and while the account is locked nothing is
 * checked. The new password follows the rules of an admin's (passwordSchema) and must differ from the
 * current one. On success: `passwordSetById` is cleared (nobody else knows it now, so the pay-out policy
 * no longer keeps this user apart from whoever set the old one), the failure count and lock are
 * cleared, and every session of the user ends, this one included (sessionVersion moves on, as after a
 * reset): see lib/actions/account.ts for why the user signs in again. Audited as
 * `user.password.change`, with no password or hash in the entry.
 */
export async function changeOwnPassword(
  actor: StaffActor,
  current: string,
  next: string,
  now = new Date(),
): Promise<PasswordChangeResult> {
  const data = parse(changeOwnPasswordSchema, { current, next });
  const user = await getDb().user.findUnique({
    where: { id: actor.id },
    select: { id: true, passwordHash: true },
  });
  if (!user?.passwordHash) return { ok: false, code: "noPassword" };
  if (!(await claimAttempt(user.id, now))) return { ok: false, code: "locked" };
  if (!(await verifyPassword(user.passwordHash, data.current))) return { ok: false, code: "wrongCurrent" };
  const passwordHash = await hashPassword(data.next);
  return getDb().$transaction(async (tx): Promise<PasswordChangeResult> => {
    // Only over the password just checked: one changed meanwhile (an admin's reset, the user's other
    // tab) is no longer the current password given here.
    const { count } = await tx.user.updateMany({
      where: { id: user.id, passwordHash: user.passwordHash },
      data: {
        passwordHash,
        passwordSetById: null,
        failedSignIns: 0,
        lockedUntil: null,
        sessionVersion: { increment: 1 },
      },
    });
    if (count === 0) return { ok: false, code: "wrongCurrent" };
    await endSignIns(tx, user.id);
    await audit(tx, actor, { action: "user.password.change", targetType: "user", targetId: user.id });
    return { ok: true };
  });
}
