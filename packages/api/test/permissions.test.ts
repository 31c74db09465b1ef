// The permission matrix: every procedure of the panel's API, called as every role, is refused
// (403 "Forbidden") exactly when the permission its operation declares (read back from the
// routers' meta into OPERATION_PERMISSIONS) says the role may not call it; a procedure without a
// permission fails this test and is refused for everyone. The session routes are checked too.

import { generateHttpApiKey, revokeHttpApiKey } from "@parley/core/agents";
import { exportVisitorData, inboxEventStream } from "@parley/core/conversations";
import { PERMISSIONS, ROLES, type Role } from "@parley/core/people";
import type { TestContext } from "@parley/testing/context";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter, createTRPCContext, OPERATION_PERMISSIONS, roleMayCall } from "../src/index.ts";
import { createCallerFactory, createTRPCRouter, protectedProcedure } from "../src/trpc.ts";
import { callerFor, setup, type Workspace } from "./support.ts";

let ctx: TestContext;
let a: Workspace;

beforeAll(async () => {
  ({ ctx, a } = await setup());
});
afterAll(async () => {
  await ctx.close();
});

const procedurePaths = Object.keys(appRouter._def.procedures).sort();

/** What each role may do, as the issue states it: the table must say the same. */
const EXPECTED_SECTIONS: Record<Role, string[]> = {
  owner: [
    "account",
    "agents",
    "articles",
    "audit",
    "conversations",
    "home",
    "imports",
    "keys",
    "people",
    "savedReplies",
    "sources",
    "team",
    "usage",
    "visitorData",
    "webhooks",
  ],
  admin: [
    "account",
    "agents",
    "articles",
    "audit",
    "conversations",
    "home",
    "imports",
    "keys",
    "savedReplies",
    "sources",
    "team",
    "usage",
    "visitorData",
    "webhooks",
  ],
  // agents: the list only (names to filter the inbox by and to link sources to).
  editor: ["account", "agents", "articles", "imports", "sources"],
  support: ["account", "agents", "conversations", "savedReplies", "team"],
};

/** Calls a procedure by its path as `role`; resolves with the error it threw, or null. */
async function callAs(role: Role, path: string): Promise<unknown> {
  const caller = callerFor(ctx, { ...a.scope, role }) as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>;
  const [router, procedure] = path.split(".") as [string, string];
  try {
    // Input is checked after the permission: `{}` is enough to tell a refusal from anything else.
    await caller[router]![procedure]!({});
    return null;
  } catch (error) {
    return error;
  }
}

const isForbidden = (error: unknown) => error instanceof TRPCError && error.code === "FORBIDDEN" && error.message === "Forbidden";

describe("the permission table", () => {
  it("names every procedure of the panel's API (a new procedure needs an entry)", () => {
    expect(procedurePaths.length).toBeGreaterThan(40);
    expect(procedurePaths.filter((path) => !Object.hasOwn(OPERATION_PERMISSIONS, path))).toEqual([]);
  });

  it("names no procedure that does not exist (routes are named by method and path)", () => {
    const stale = Object.keys(OPERATION_PERMISSIONS).filter((operation) => !operation.includes(" ") && !procedurePaths.includes(operation));
    expect(stale).toEqual([]);
  });

  it("gives each role what it is for: owner everything, admin all but people, editor the knowledge base, support the inbox", () => {
    for (const role of ROLES) {
      const sections = [...new Set(procedurePaths.filter((path) => roleMayCall(role, path)).map((path) => path.split(".")[0]))].sort();
      expect(sections, role).toEqual(EXPECTED_SECTIONS[role]);
    }
    expect(procedurePaths.every((path) => roleMayCall("owner", path))).toBe(true);
    // Editors and support may not touch keys, webhooks, agents or settings.
    for (const role of ["editor", "support"] as const) {
      expect(roleMayCall(role, "keys.generate")).toBe(false);
      expect(roleMayCall(role, "agents.update")).toBe(false);
      expect(roleMayCall(role, "agents.get")).toBe(false);
      expect(roleMayCall(role, "agents.list")).toBe(true);
      expect(roleMayCall(role, "webhooks.create")).toBe(false);
      expect(roleMayCall(role, "POST /api/agents/{agent_id}/http-api-key")).toBe(false);
    }
    expect([...PERMISSIONS["people.manage"]]).toEqual(["owner"]);
    // Exporting takes every visitor's data out: owners and admins only.
    expect([...PERMISSIONS["inbox.export"]]).toEqual(["owner", "admin"]);
    expect(roleMayCall("support", "GET /api/panel/conversations/export")).toBe(false);
    // A visitor's data, exported or erased: owners and admins; deleting an agent: owners only.
    expect([...PERMISSIONS["visitorData.manage"]]).toEqual(["owner", "admin"]);
    expect(roleMayCall("support", "GET /api/panel/visitor-data/export")).toBe(false);
    expect(roleMayCall("editor", "visitorData.erase")).toBe(false);
    expect(roleMayCall("admin", "agents.delete")).toBe(false);
    expect(roleMayCall("editor", "articles.delete")).toBe(true);
    expect(roleMayCall("support", "sources.delete")).toBe(false);
    // Importing writes the knowledge base: the roles that may write it.
    expect(roleMayCall("editor", "POST /api/panel/imports")).toBe(true);
    expect(roleMayCall("support", "POST /api/panel/imports")).toBe(false);
  });

  it("an operation the table does not name is refused for every role", () => {
    for (const role of ROLES) expect(roleMayCall(role, "agents.destroyEverything")).toBe(false);
  });

  it("a procedure whose meta declares no permission is refused (403) for every role, and missing from the table", async () => {
    const router = createTRPCRouter({ destroyEverything: protectedProcedure.query(() => "destroyed") });
    const call = createCallerFactory(router);
    for (const role of ROLES) {
      const caller = call(createTRPCContext({ ctx, session: { ...a.scope, role }, sameOrigin: true }));
      expect(isForbidden(await caller.destroyEverything().catch((error: unknown) => error)), role).toBe(true);
    }
    expect(Object.hasOwn(OPERATION_PERMISSIONS, "destroyEverything")).toBe(false);
  });
});

describe("every procedure x every role", () => {
  for (const role of ROLES) {
    it(`as ${role}: refused (403 Forbidden) exactly where the table says so`, async () => {
      const mismatches: string[] = [];
      for (const path of procedurePaths) {
        const refused = isForbidden(await callAs(role, path));
        if (refused === roleMayCall(role, path)) mismatches.push(`${path}: ${refused ? "refused" : "allowed"}`);
      }
      expect(mismatches).toEqual([]);
    });
  }
});

describe("the panel's live inbox events (panel session)", () => {
  it("are refused for editors, streamed for the roles of the inbox", () => {
    for (const role of ROLES) {
      const open = () => inboxEventStream(undefined, { ...a.scope, role }, new AbortController().signal).cancel();
      if (role === "editor") expect(open, role).toThrow("Forbidden");
      else expect(open, role).not.toThrow();
    }
  });
});

describe("the HTTP API key route (panel session)", () => {
  it("is refused with 403 for editors and support, served for owners and admins", async () => {
    for (const role of ROLES) {
      const caller = { session: { ...a.scope, role }, sameOrigin: true };
      const created = await generateHttpApiKey(ctx, caller, a.agentId);
      const revoked = await revokeHttpApiKey(ctx, caller, a.agentId);
      const expected = role === "owner" || role === "admin" ? [201, 204] : [403, 403];
      expect([created.status, revoked.status], role).toEqual(expected);
      if (created.status === 403) expect(created.json).toMatchObject({ error: "Forbidden" });
    }
  });
});

describe("the visitor's data export route (panel session)", () => {
  it("is refused with 403 for editors and support, served for owners and admins", async () => {
    for (const role of ROLES) {
      const status = await exportVisitorData(ctx, { ...a.scope, role }, { email: "nobody@example.com" }).then(
        (result) => result.status,
        (error: { status: number }) => error.status,
      );
      expect(status, role).toBe(role === "owner" || role === "admin" ? 200 : 403);
    }
  });
});
