// What the widget shows under a visitor's message the server has not acknowledged yet: "Sending…"
// (faded in after a moment, so a quick acknowledgement shows nothing) while the chat is connected,
// "Not sent — retrying" while it is not (the SDK sends it again once back), and nothing once
// stored. A message the server refused reads "Not sent" (the error's notice says why).

export const SENDING_TEXT = "Sending…";
export const RETRYING_TEXT = "Not sent — retrying";
export const NOT_SENT_TEXT = "Not sent";

export const PENDING_MARK_STYLE = `
.pending { display: block; margin-top: 2px; font-size: 12px; text-align: right; opacity: .85; }
.pending.sending { opacity: 0; animation: parley-late .2s 1s forwards; }
@keyframes parley-late { to { opacity: .85; } }
`;

export class PendingMarks {
  /** The mark of each message waiting for its acknowledgement, by clientMessageId. */
  private readonly marks = new Map<string, HTMLElement>();
  /** False from a close until the socket is open again (the first connection counts as online). */
  private online = true;

  /** A message just sent, shown as `item`. */
  add(item: HTMLElement, clientMessageId: string): void {
    const mark = document.createElement("span");
    item.append(mark);
    this.marks.set(clientMessageId, mark);
    this.show(mark);
  }

  /** Stored (acknowledged, or answered): the mark goes. */
  settle(clientMessageId: string | undefined): void {
    if (clientMessageId === undefined) return;
    this.marks.get(clientMessageId)?.remove();
    this.marks.delete(clientMessageId);
  }

  /** Refused by the server: it will not be sent again. */
  refuse(clientMessageId: string | undefined): void {
    const mark = clientMessageId === undefined ? undefined : this.marks.get(clientMessageId);
    if (!mark || clientMessageId === undefined) return;
    this.marks.delete(clientMessageId);
    mark.className = "pending";
    mark.textContent = NOT_SENT_TEXT;
  }

  /** The socket is open (pending messages are being sent) or down (they wait for it). */
  setOnline(online: boolean): void {
    this.online = online;
    for (const mark of this.marks.values()) this.show(mark);
  }

  private show(mark: HTMLElement): void {
    mark.className = this.online ? "pending sending" : "pending";
    mark.textContent = this.online ? SENDING_TEXT : RETRYING_TEXT;
  }
}
