// How team members are named: in the panel and webhooks by their name, or their email when they
// have none; to visitors (the widget) by their name only, never their email.
import type { Database } from "@parley/db";

/** What the visitor reads when a person without a name joins. */
export const UNNAMED_TEAM_MEMBER = "A team member";

export function teamMemberName(user: { name: string; email: string }): string {
  return user.name.trim() || user.email;
}

export function publicName(user: { name: string }): string {
  return user.name.trim() || UNNAMED_TEAM_MEMBER;
}

/** The workspace's team members, for the assignee picker and filter. */
export async function listTeamMembers(db: Database, workspaceId: string) {
  const users = await db.prisma.user.findMany({
    where: { workspaceId },
    select: { id: true, name: true, email: true },
    orderBy: [{ name: "asc" }, { email: "asc" }],
  });
  return users.map((user) => ({ id: user.id, name: teamMemberName(user), email: user.email }));
}
