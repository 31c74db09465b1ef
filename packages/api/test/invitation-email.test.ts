// The invitation email (SMTP_URL): with a mailer the one-time link goes out by email after the
// invitation is stored; a failing server never undoes the invitation (the panel shows the link to
// copy); without a mailer nothing is sent. A tiny in-process SMTP server (smtp-server) receives.
import { senderFor, smtpMailer } from "@parley/core";
import type { TestContext } from "@parley/testing/context";
import { startTestSmtp, type TestSmtp } from "@parley/testing/smtp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { callerFor, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;
let smtp: TestSmtp;
let refuseRecipients = false;

beforeAll(async () => {
  ({ ctx, a } = await setup());
  smtp = await startTestSmtp({ credentials: { user: "mailer", password: "s3cret" }, refuseRecipient: () => refuseRecipients });
});

afterEach(() => {
  ctx.mailer?.close();
  ctx.mailer = undefined;
  refuseRecipients = false;
  smtp.mails.length = 0;
});

afterAll(async () => {
  await smtp.close();
  await ctx.close();
});

const owner = () => callerFor(ctx, a.scope);
const invitationEmails = async () => (await owner().people.list()).invitations.map((invitation) => invitation.email);

describe("the invitation email", () => {
  it("sends the one-time link to the invited address when SMTP is configured", async () => {
    ctx.mailer = smtpMailer(`smtp://mailer:s3cret@127.0.0.1:${smtp.port}`, senderFor(ctx.appUrl));
    const created = await owner().people.invite({ email: "zoe@example.com", role: "support" });
    expect(created.emailed).toBe("sent");
    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(mail?.to).toEqual(["zoe@example.com"]);
    expect(mail?.from).toBe("parley@localhost");
    expect(mail?.raw).toContain("Subject: alpha@example.com invited you to alpha on Parley");
    // The link, unfolded from the quoted-printable body, is the one the panel shows.
    const body = (mail?.raw ?? "").replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    expect(body).toContain(created.link);
    expect(body).toContain("as a support agent");
    expect(body).toContain("expires in 7 days");
    expect(await invitationEmails()).toContain("zoe@example.com");
  });

  it("a refused or unreachable server leaves the invitation in place and says the email failed", async () => {
    ctx.mailer = smtpMailer(`smtp://mailer:s3cret@127.0.0.1:${smtp.port}`, senderFor(ctx.appUrl));
    refuseRecipients = true;
    const refused = await owner().people.invite({ email: "refused@example.com", role: "editor" });
    expect(refused).toMatchObject({ emailed: "failed", link: expect.stringContaining("/invite/") });
    ctx.mailer.close();

    ctx.mailer = smtpMailer(`smtp://mailer:wrong@127.0.0.1:${smtp.port}`, senderFor(ctx.appUrl));
    expect((await owner().people.invite({ email: "badauth@example.com", role: "editor" })).emailed).toBe("failed");
    ctx.mailer.close();

    // Nothing listens on port 1.
    ctx.mailer = smtpMailer("smtp://127.0.0.1:1", senderFor(ctx.appUrl));
    expect((await owner().people.invite({ email: "nobody@example.com", role: "editor" })).emailed).toBe("failed");
    expect(smtp.mails).toHaveLength(0);
    expect(await invitationEmails()).toEqual(expect.arrayContaining(["refused@example.com", "badauth@example.com", "nobody@example.com"]));
  });

  it("without SMTP nothing is sent and the link is to be copied, as before", async () => {
    const created = await owner().people.invite({ email: "copy@example.com", role: "admin" });
    expect(created.emailed).toBe("off");
    expect(smtp.mails).toHaveLength(0);
  });
});
