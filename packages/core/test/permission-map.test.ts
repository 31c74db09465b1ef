// What the panel shows each role: the "can" map is core's permission table for the role, for every
// role and permission, and each refusal reads as a sentence naming what was refused and who may.
import { describe, expect, it } from "vitest";
import { assertCan, PERMISSION_NAMES, PERMISSIONS, permissionsOf, refusalOf, roleMay } from "../src/people/permissions.ts";
import { ROLES } from "../src/people/scope.ts";
import { AppError } from "../src/platform/errors.ts";

describe("the panel's permission map", () => {
  it("is the table's answer for every role and every permission", () => {
    expect(PERMISSION_NAMES).toEqual(Object.keys(PERMISSIONS));
    for (const role of ROLES) {
      const map = permissionsOf(role);
      expect(Object.keys(map)).toEqual(PERMISSION_NAMES);
      for (const permission of PERMISSION_NAMES) expect(map[permission], `${role} ${permission}`).toBe(roleMay(role, permission));
    }
  });

  it("hides what each role may not do on the pages it opens", () => {
    // The actions the issue names: the inbox's export and the visitor's data (support), the agent
    // page behind a conversation's agent (support), deleting an agent (admin), creating agents (editor).
    expect(["owner", "admin", "editor", "support"].map((role) => permissionsOf(role as "owner")["inbox.export"])).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(permissionsOf("support")).toMatchObject({
      "inbox.read": true,
      "inbox.export": false,
      "visitorData.manage": false,
      "agents.read": false,
    });
    expect(permissionsOf("admin")).toMatchObject({ "agents.delete": false, "people.manage": false, "inbox.export": true });
    expect(permissionsOf("editor")).toMatchObject({ "knowledge.write": true, "agents.write": false, "inbox.read": false });
  });
});

describe("refusals", () => {
  it("say what was refused, who may do it and who changes roles", () => {
    expect(refusalOf("inbox.export")).toBe(
      "Your role does not allow exporting conversations: only owners and admins may. An owner of the workspace can change your role.",
    );
    expect(refusalOf("agents.delete")).toBe(
      "Your role does not allow deleting agents: only owners may. An owner of the workspace can change your role.",
    );
    expect(refusalOf("inbox.reply")).toBe(
      "Your role does not allow replying to visitors: only owners, admins and support teammates may. An owner of the workspace can change your role.",
    );
  });

  it("travel as the details of core's 403", () => {
    let caught: unknown;
    try {
      assertCan({ workspaceId: "ws", userId: "u", role: "support" }, "visitorData.manage");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).toBody()).toEqual({ error: "Forbidden", details: refusalOf("visitorData.manage") });
    expect((caught as AppError).status).toBe(403);
  });
});
