// "Forgot password?": a person who cannot sign in asks for a reset link by email (only when the
// server sends email, SMTP_URL). The link's token is stored only as its SHA-256, works once and
// for PASSWORD_RESET_TTL_SECONDS; setting a new password with it uses up every other link of the
// person and ends all of their sessions. Asking never tells whether the address has an account:
// the answer is the same words, and it comes back before the account is even looked up (the
// lookup, the link and the email run after, in `delivery`), so it takes the same time too.
import { createHash, randomBytes } from "node:crypto";
import type { Database } from "@parley/db";
import { z } from "zod";
import { limitAddress } from "../platform/client-ip.ts";
import { AppError, isAppError } from "../platform/errors.ts";
import { describeError, logger } from "../platform/logger.ts";
import type { Mailer, MailMessage } from "../platform/mail.ts";
import { enforceRateLimit } from "../platform/ratelimit/index.ts";
import type { RateLimiter, RateLimiters } from "../platform/ratelimit/types.ts";
import { newPasswordInput } from "./account.ts";
import { recordAudit } from "./audit.ts";
import { PEOPLE_ERRORS } from "./errors.ts";
import {
  PASSWORD_RESET_ATTEMPTS_PER_IP_PER_WINDOW,
  PASSWORD_RESET_REQUESTS_PER_EMAIL_PER_HOUR,
  PASSWORD_RESET_REQUESTS_PER_IP_PER_WINDOW,
  PASSWORD_RESET_TTL_SECONDS,
} from "./limits.ts";
import { hashPassword } from "./passwords.ts";
import type { RequestClient } from "./scope.ts";
import { endAllSessions } from "./sessions.ts";
import { passwordWork } from "./sign-in.ts";

const MINUTES = PASSWORD_RESET_TTL_SECONDS / 60;

/** What the page says after a request, whether or not the address has an account. */
export const PASSWORD_RESET_REQUESTED = `If an account uses this address, we have emailed it a link to choose a new password. The link works once, within ${MINUTES} minutes.`;

export const passwordResetRequestInput = z.object({
  email: z.string().trim().toLowerCase().max(320).pipe(z.email("Enter an email address")),
});
/** A reset token as the link carries it (32 random bytes, base64url). */
export const passwordResetTokenInput = z.string().trim().min(1).max(200);
export const completePasswordResetInput = z.object({ token: passwordResetTokenInput, password: newPasswordInput });

const REQUESTS_PER_IP = { name: "password-reset-ip", limit: PASSWORD_RESET_REQUESTS_PER_IP_PER_WINDOW, windowSeconds: 15 * 60 };
const REQUESTS_PER_EMAIL = { name: "password-reset-email", limit: PASSWORD_RESET_REQUESTS_PER_EMAIL_PER_HOUR, windowSeconds: 60 * 60 };
const ATTEMPTS_PER_IP = { name: "password-reset-attempts", limit: PASSWORD_RESET_ATTEMPTS_PER_IP_PER_WINDOW, windowSeconds: 15 * 60 };

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Counts one request against a reset budget; past it, PASSWORD_RESET_THROTTLED (429) with Retry-After. */
async function limitReset(limiter: RateLimiter, identifier: string): Promise<void> {
  try {
    await enforceRateLimit(limiter, identifier);
  } catch (error) {
    if (isAppError(error) && error.code === "RATE_LIMITED")
      throw new AppError(PEOPLE_ERRORS.PASSWORD_RESET_THROTTLED, { headers: error.headers });
    throw error;
  }
}

/** Counts one attempt to open or use a reset link from this IP. */
export async function limitPasswordResetAttempt(limiters: RateLimiters, clientIp: string): Promise<void> {
  await limitReset(limiters.configured(ATTEMPTS_PER_IP), limitAddress(clientIp));
}

/**
 * Asks for a reset link for an email address: PASSWORD_RESET_OFF without a mailer, then the IP's
 * and the address's budgets (PASSWORD_RESET_THROTTLED; the address's counts whether or not it has
 * an account). Resolves with PASSWORD_RESET_REQUESTED at once; `delivery` (never rejects) looks up
 * the address and, for an active person, stores the link's hash and emails the link.
 */
export async function requestPasswordReset(
  deps: { db: Database; limiters: RateLimiters; appUrl: string; mailer?: Mailer },
  input: z.infer<typeof passwordResetRequestInput>,
  client: RequestClient,
  now: Date,
): Promise<{ message: string; delivery: Promise<void> }> {
  const { mailer } = deps;
  if (!mailer) throw new AppError(PEOPLE_ERRORS.PASSWORD_RESET_OFF);
  await limitReset(deps.limiters.configured(REQUESTS_PER_IP), limitAddress(client.ip));
  await limitReset(deps.limiters.configured(REQUESTS_PER_EMAIL), input.email);
  const delivery = deliverReset({ ...deps, mailer }, input.email, client, now).catch((error: unknown) => {
    // Neither the link nor the address goes into the log.
    logger.warn("password reset email not sent", { error: describeError(error) });
  });
  return { message: PASSWORD_RESET_REQUESTED, delivery };
}

async function deliverReset(
  deps: { db: Database; appUrl: string; mailer: Mailer },
  email: string,
  client: RequestClient,
  now: Date,
): Promise<void> {
  const user = await deps.db.prisma.user.findUnique({
    where: { email },
    select: { id: true, email: true, workspaceId: true, deactivatedAt: true },
  });
  if (!user || user.deactivatedAt !== null) return;
  const token = randomBytes(32).toString("base64url");
  await deps.db.prisma.$transaction(async (tx) => {
    // Links that can no longer work are forgotten as new ones are made.
    await tx.passwordReset.deleteMany({ where: { userId: user.id, OR: [{ usedAt: { not: null } }, { expiresAt: { lte: now } }] } });
    await tx.passwordReset.create({
      data: {
        userId: user.id,
        tokenHash: hashToken(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + PASSWORD_RESET_TTL_SECONDS * 1000),
      },
    });
    const actor = { workspaceId: user.workspaceId, userId: user.id, email: user.email, client };
    await recordAudit(tx, actor, { action: "account.password.reset.requested", ...personTarget(user) });
  });
  await deps.mailer.send(passwordResetEmail({ email: user.email, link: `${deps.appUrl}/reset-password/${token}` }));
}

/** The reset link as an email. */
export function passwordResetEmail(reset: { email: string; link: string }): MailMessage {
  return {
    to: reset.email,
    subject: "Reset your Parley password",
    text: [
      "Someone (hopefully you) asked to reset the password of your Parley account.",
      "",
      "Open this link to choose a new password:",
      reset.link,
      "",
      `The link works once and expires in ${MINUTES} minutes. Choosing a new password signs you out everywhere else.`,
      "If you did not ask for this, ignore this email: your password stays as it is.",
    ].join("\n"),
  };
}

/** What the reset page shows for a link: the person's email, or PASSWORD_RESET_NOT_VALID. */
export async function openPasswordReset(db: Database, token: string, now: Date): Promise<{ id: string; userId: string; email: string }> {
  const parsed = passwordResetTokenInput.safeParse(token);
  if (!parsed.success) throw new AppError(PEOPLE_ERRORS.PASSWORD_RESET_NOT_VALID);
  const reset = await db.prisma.passwordReset.findUnique({
    where: { tokenHash: hashToken(parsed.data) },
    select: { id: true, expiresAt: true, usedAt: true, user: { select: { id: true, email: true, deactivatedAt: true } } },
  });
  if (!reset || reset.usedAt !== null || reset.expiresAt <= now || reset.user.deactivatedAt !== null)
    throw new AppError(PEOPLE_ERRORS.PASSWORD_RESET_NOT_VALID);
  return { id: reset.id, userId: reset.user.id, email: reset.user.email };
}

/**
 * Sets a new password with a reset link: the link is used up in the same transaction, conditionally
 * (of two concurrent uses one wins), with every other link of the person; then every session of
 * the person ends. Returns the email to sign in with.
 */
export async function completePasswordReset(
  db: Database,
  input: z.infer<typeof completePasswordResetInput>,
  client: RequestClient,
  now: Date,
): Promise<{ email: string; endedSessions: number }> {
  const reset = await openPasswordReset(db, input.token, now);
  const passwordHash = await passwordWork(() => hashPassword(input.password));
  const user = await db.prisma.$transaction(async (tx) => {
    const used = await tx.passwordReset.updateMany({
      where: { id: reset.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (used.count !== 1) throw new AppError(PEOPLE_ERRORS.PASSWORD_RESET_NOT_VALID);
    const person = await tx.user.findUniqueOrThrow({
      where: { id: reset.userId },
      select: { id: true, email: true, workspaceId: true, deactivatedAt: true },
    });
    if (person.deactivatedAt !== null) throw new AppError(PEOPLE_ERRORS.PASSWORD_RESET_NOT_VALID);
    await tx.user.update({ where: { id: person.id }, data: { passwordHash } });
    await tx.passwordReset.updateMany({ where: { userId: person.id, usedAt: null }, data: { usedAt: now } });
    const actor = { workspaceId: person.workspaceId, userId: person.id, email: person.email, client };
    await recordAudit(tx, actor, { action: "account.password.reset.completed", ...personTarget(person) });
    return person;
  });
  return { email: user.email, endedSessions: await endAllSessions(db, user.id, now) };
}

const personTarget = (user: { id: string; email: string }) =>
  ({ targetType: "person", targetId: user.id, targetLabel: user.email }) as const;
