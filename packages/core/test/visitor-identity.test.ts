import { describe, expect, it } from "vitest";
import { tagInQuery, visitorIdentity, visitorTag } from "../src/conversations/identity.ts";

describe("visitorIdentity", () => {
  it("names a visitor by name, else email, else a tag with the starting page", () => {
    const id = "cm3conversation0001";
    const tag = visitorTag(id);
    expect(visitorIdentity({ id, visitorName: "Ada", visitorEmail: "ada@example.com" })).toBe("Ada");
    expect(visitorIdentity({ id, visitorEmail: "ada@example.com", firstPageUrl: "https://shop.example.com/" })).toBe("ada@example.com");
    expect(visitorIdentity({ id, firstPageUrl: "https://shop.example.com/pricing?plan=pro#faq" })).toBe(
      `Visitor ${tag} on shop.example.com/pricing`,
    );
    expect(visitorIdentity({ id, firstPageUrl: "https://shop.example.com/" })).toBe(`Visitor ${tag} on shop.example.com`);
    expect(visitorIdentity({ id, firstPageUrl: "not a url" })).toBe(`Anonymous visitor ${tag}`);
    expect(visitorIdentity({ id })).toBe(`Anonymous visitor ${tag}`);
  });

  it("tells apart two anonymous visitors on one page, and names one the same every time", () => {
    const page = "https://shop.example.com/pricing";
    const first = visitorIdentity({ id: "cm3aaaaaaaaaaaaaaaaaaaaaa", firstPageUrl: page });
    const second = visitorIdentity({ id: "cm3aaaaaaaaaaaaaaaaaaaaab", firstPageUrl: page });
    expect(first).not.toBe(second);
    expect(visitorIdentity({ id: "cm3aaaaaaaaaaaaaaaaaaaaaa", firstPageUrl: page })).toBe(first);
  });

  it("makes the tag of the id's last four characters, and reads a search for one", () => {
    expect(visitorTag("cmx0bumdp0027pw7d9qnl7xjy")).toBe("#7XJY");
    for (const query of ["#7XJY", "7xjy", " #7xjy "]) expect(tagInQuery(query), query).toBe("7xjy");
    for (const query of ["#7XJ", "7xjyz", "#7x-y", "refund policy", ""]) expect(tagInQuery(query), query).toBeNull();
  });

  it("makes a tag of # and four letters or digits, nearly always different for different ids", () => {
    const tags = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const tag = visitorTag(`cm3${i.toString(36).padStart(22, "x")}`);
      expect(tag).toMatch(/^#[0-9A-Z]{4}$/);
      tags.add(tag);
    }
    // 36^4 tags: a thousand conversations share hardly any.
    expect(tags.size).toBeGreaterThanOrEqual(995);
  });
});
