// The help centre's and the widget's settings: what an admin may save (colours, https addresses,
// at most 5 suggestions, text lengths), what a stored value reads back as, and the readable text
// colour on an accent.
import { describe, expect, it } from "vitest";
import { brandingInput, contrastRatio, helpCentreName, readBranding, textColorOn } from "../src/agents/branding.ts";

function problems(input: unknown): Record<string, string> {
  const result = brandingInput.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join("."), issue.message]));
}

describe("branding settings", () => {
  it("fills every field with its default", () => {
    expect(brandingInput.parse({})).toEqual({
      helpName: "",
      logoUrl: "",
      accentColor: "#0b57d0",
      footerLink: null,
      widgetTitle: "",
      widgetGreeting: "",
      widgetAccentColor: "#0b57d0",
      suggestions: [],
    });
  });

  it("stores colours as lower-case #rrggbb and refuses anything else", () => {
    expect(brandingInput.parse({ accentColor: "#ABC", widgetAccentColor: " #FFD500 " })).toMatchObject({
      accentColor: "#aabbcc",
      widgetAccentColor: "#ffd500",
    });
    for (const bad of ["red", "#12345", "#ggg", "rgb(0,0,0)", "#1234567"]) {
      expect(problems({ accentColor: bad })).toEqual({ accentColor: "Enter a colour as #rrggbb, e.g. #0b57d0" });
    }
  });

  it("takes only https addresses without credentials for the logo and the footer link, and an uploaded image for the logo", () => {
    expect(brandingInput.parse({ logoUrl: " https://cdn.example.com/logo.png " }).logoUrl).toBe("https://cdn.example.com/logo.png");
    const uploaded = `/api/images/${"c".repeat(64)}.png`;
    expect(brandingInput.parse({ logoUrl: uploaded }).logoUrl).toBe(uploaded);
    expect(problems({ footerLink: { label: "Home", url: uploaded } })).toEqual({
      "footerLink.url": "Enter an address starting with https://",
    });
    for (const bad of [
      "http://example.com/logo.png",
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
      "/logo.png",
      `/api/images/${"c".repeat(64)}.svg`,
      "https://user:pw@example.com/x",
    ]) {
      expect(problems({ logoUrl: bad })).toEqual({ logoUrl: "Enter an address starting with https://, or upload an image" });
      expect(problems({ footerLink: { label: "Home", url: bad } })).toEqual({
        "footerLink.url": "Enter an address starting with https://",
      });
    }
    expect(problems({ footerLink: { label: " ", url: "https://example.com" } })).toEqual({ "footerLink.label": "Enter the link's text" });
    expect(problems({ logoUrl: `https://example.com/${"a".repeat(500)}` })).toEqual({ logoUrl: "Use at most 500 characters" });
  });

  it("limits the texts and allows at most 5 suggestions", () => {
    expect(problems({ helpName: "x".repeat(61), widgetTitle: "x".repeat(61), widgetGreeting: "x".repeat(501) })).toEqual({
      helpName: "Use at most 60 characters",
      widgetTitle: "Use at most 60 characters",
      widgetGreeting: "Use at most 500 characters",
    });
    const suggestion = { text: "How do I pay?" };
    expect(brandingInput.parse({ suggestions: Array(5).fill(suggestion) }).suggestions).toHaveLength(5);
    expect(problems({ suggestions: Array(6).fill(suggestion) })).toEqual({ suggestions: "Use at most 5 suggestions" });
    expect(problems({ suggestions: [{ text: "  " }] })).toEqual({ "suggestions.0.text": "Enter a question or an article title" });
    expect(problems({ suggestions: [{ text: "x".repeat(121) }] })).toEqual({ "suggestions.0.text": "Use at most 120 characters" });
  });

  it("reads a stored value key by key: unknown keys dropped, invalid ones at their default", () => {
    expect(readBranding({ helpName: "Acme Help", accentColor: "javascript:", extra: 1, suggestions: "no" })).toEqual({
      ...brandingInput.parse({}),
      helpName: "Acme Help",
    });
    expect(readBranding(null)).toEqual(brandingInput.parse({}));
  });

  it("names the help centre after the workspace unless a name is set", () => {
    expect(helpCentreName(readBranding({}), "Acme Cloud")).toBe("Acme Cloud Help Centre");
    expect(helpCentreName(readBranding({ helpName: "Acme Answers" }), "Acme Cloud")).toBe("Acme Answers");
  });
});

describe("text on the accent colour", () => {
  it("picks white on dark accents and black on light ones, whichever has more contrast", () => {
    expect(textColorOn("#0b57d0")).toBe("#ffffff");
    expect(textColorOn("#000000")).toBe("#ffffff");
    expect(textColorOn("#ffd500")).toBe("#000000");
    expect(textColorOn("#ffffff")).toBe("#000000");
    expect(textColorOn("#00ff00")).toBe("#000000");
  });

  it("keeps at least the 4.5:1 of WCAG AA for normal text on every grey", () => {
    for (let level = 0; level <= 255; level += 5) {
      const hex = level.toString(16).padStart(2, "0");
      const accent = `#${hex}${hex}${hex}`;
      expect(contrastRatio(accent, textColorOn(accent))).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
  });
});
