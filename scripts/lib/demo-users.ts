// One demo user per role for development and demos; existing users are left as they are.
import { cliActor } from "../../lib/audit/log";
import { roles } from "../../lib/auth/permissions";
import { getDb } from "../../lib/db";
import { createUser } from "../../lib/users/service";

export const demoUsers = roles.map((role) => ({
  email: `${role}@paydesk.local`,
  password: `paydesk-${role}-demo`,
  role,
}));

export async function seedDemoUsers(): Promise<typeof demoUsers> {
  for (const user of demoUsers) {
    const exists = await getDb().user.findUnique({ where: { email: user.email }, select: { id: true } });
    if (!exists) await createUser(cliActor, { ...user, name: `Demo ${user.role}` });
  }
  return demoUsers;
}
