import type { Metadata } from "next";
import { CreateUserForm } from "@/components/admin/create-user-form";
import { UserRow } from "@/components/admin/user-row";
import { DataTable } from "@/components/ui/data-table";
import { requirePagePermission } from "@/lib/auth/session";
import { formatInZone } from "@/lib/time/zone";
import { listUsers } from "@/lib/users/service";

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
      <DataTable
        testId="users-table"
        headers={["Email", "Name", "Role", "State", "Last sign-in (UTC)", "Actions"]}
      >
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
            }}
          />
        ))}
      </DataTable>
    </section>
  );
}
