import type { Metadata } from "next";
import { CreateUserForm } from "@/components/admin/create-user-form";
import { UserRow } from "@/components/admin/user-row";
import { requirePagePermission } from "@/lib/auth/session";
import { formatInZone } from "@/lib/time/zone";
import { listUsers } from "@/lib/users/service";
import { HeaderRow } from "@/components/ui/header-row";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const me = await requirePagePermission("users.manage");
  const users = await listUsers();
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Users</h1>
      <h2 className="text-lg font-semibold">New user</h2>
      <CreateUserForm />
      <h2 className="text-lg font-semibold">Staff</h2>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="users-table">
          <thead className="text-xs text-zinc-500">
            <HeaderRow labels={["Email", "Name", "Role", "State", "Last sign-in (UTC)", "Actions"]} />
          </thead>
          <tbody>
            {users.map((u) => (
              <UserRow
                key={u.id}
                user={{
                  id: u.id,
                  email: u.email,
                  name: u.name,
                  role: u.role,
                  disabled: u.disabledAt !== null,
                  lastSignInAt: u.lastSignInAt ? formatInZone(u.lastSignInAt, "UTC") : null,
                  isMe: u.id === me.id,
                  twoFactor: u.totpEnrolledAt !== null,
                }}
              />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
