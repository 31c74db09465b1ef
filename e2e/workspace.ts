// The inbox workspace's parts, for the journeys: the list's row of a conversation, the open
// conversation (its header, transcript, composer and status line, and the details beside it),
// and the list's filters (behind their button).
import { expect, type Page } from "@playwright/test";

/** A conversation's row in the list (its link keeps the list's filters after the id). */
export function inboxRow(page: Page, conversationId: string) {
  const id = encodeURIComponent(conversationId);
  return page
    .getByRole("list", { name: "Conversations" })
    .getByRole("listitem")
    .filter({ has: page.locator(`a[href="/panel/conversations/${id}"], a[href^="/panel/conversations/${id}?"]`) });
}

/** The conversation open in the workspace. */
export function openConversation(page: Page) {
  const screen = page.locator("section.conversation-screen");
  const reply = screen.getByRole("region", { name: "Reply" });
  return {
    screen,
    /** The visitor's name and the status and rating badges. */
    title: screen.locator(".conversation-title-row"),
    /** Who answers the visitor now, in a sentence. */
    state: screen.locator(".handling-state"),
    transcript: screen.getByRole("region", { name: "Transcript" }),
    /** The pinned composer, with the conversation's one status line. */
    reply,
    status: reply.getByRole("status"),
    /** Assignment and the conversation's facts (beside the transcript; behind "Info" on narrow screens). */
    handling: screen.getByRole("region", { name: "Handling" }),
  };
}

/** Opens the list's filters (they sit behind a button). */
export async function openFilters(page: Page): Promise<void> {
  const toggle = page.getByRole("button", { name: /^Filters/ });
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
}
