// How the panel names the roles (what each may do is core's table).
export const ROLE_OPTIONS = [
  { value: "owner", label: "Owner", description: "everything, including people" },
  { value: "admin", label: "Admin", description: "agents, keys, knowledge base, webhooks and inbox" },
  { value: "editor", label: "Editor", description: "knowledge base only" },
  { value: "support", label: "Support", description: "inbox only: read and reply to conversations" },
] as const;

export type RoleName = (typeof ROLE_OPTIONS)[number]["value"];

export const roleLabel = (role: RoleName) => ROLE_OPTIONS.find((option) => option.value === role)?.label ?? role;
