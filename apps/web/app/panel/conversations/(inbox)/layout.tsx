import type { ReactNode } from "react";
import { InboxWorkspace } from "~/panel/conversations/InboxWorkspace.tsx";

export const dynamic = "force-dynamic";

/**
 * The inbox is one workspace: the list stays mounted (with its filters, scroll and focus) while
 * the conversation beside it changes, so moving between conversations loads only the conversation.
 */
export default function InboxLayout({ children }: { children: ReactNode }) {
  return <InboxWorkspace>{children}</InboxWorkspace>;
}
