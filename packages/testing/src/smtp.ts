// An SMTP server in the test process that keeps every mail it receives: what the tests of email
// out (invitations, password reset links, replies to visitors) read back. Loopback only.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent: headers and body, quoted-printable where the sender chose it. */
  raw: string;
}

export interface TestSmtp {
  port: number;
  /** Every mail received so far, oldest first. */
  mails: ReceivedMail[];
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  /** The only user and password accepted (AUTH on); absent: no authentication. */
  credentials?: { user: string; password: string };
  /** Asked at each recipient: true refuses it ("Mailbox unavailable"). */
  refuseRecipient?: () => boolean;
}

export async function startTestSmtp(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const { credentials } = options;
  const server = new SMTPServer({
    disabledCommands: credentials ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    allowInsecureAuth: true,
    authOptional: !credentials,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.password) {
        return callback(null, { user: auth.username });
      }
      return callback(new Error("Invalid username or password"));
    },
    onRcptTo(_address, _session, callback) {
      callback(options.refuseRecipient?.() ? new Error("Mailbox unavailable") : undefined);
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => {
        raw += chunk.toString("utf8");
      });
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
        });
        callback();
      });
    },
    logger: false,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A mail's text with quoted-printable soft breaks and escapes undone (enough for ASCII bodies). */
export function decodedMail(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
