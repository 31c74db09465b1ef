// `npm start` builds the app first; a build that prints nothing for minutes looked hung. The
// start script shows the build's own lines and a line of its own whenever the build is quiet.
import { describe, expect, it } from "vitest";
import { buildWithProgress } from "../../../scripts/build-progress.mjs";

describe("the start script's build progress", () => {
  it("passes the build's lines through and says it is still building while the build is quiet", async () => {
    const lines: string[] = [];
    const script = "console.log('Compiling'); setTimeout(() => console.log('Compiled'), 4500);";
    const code = await buildWithProgress(process.cwd(), process.env, {
      command: [process.execPath, "-e", script],
      progressSeconds: 1,
      log: (line: string) => lines.push(line),
    });
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^Building the app .*a first start takes a few minutes/);
    expect(lines[1]).toBe("  Compiling");
    // Quiet for 4.5 s with a 1 s interval: at least two progress lines before the next build line.
    const compiled = lines.indexOf("  Compiled");
    const progress = lines.slice(2, compiled);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    for (const line of progress) expect(line).toMatch(/^ {2}still building: \d+ s so far$/);
    expect(lines.at(-1)).toMatch(/^Built in \d+ s\.$/);
  });

  it("resolves with the build's failing exit code and does not say it built", async () => {
    const lines: string[] = [];
    const code = await buildWithProgress(process.cwd(), process.env, {
      command: [process.execPath, "-e", "console.error('Type error: x'); process.exit(3)"],
      log: (line: string) => lines.push(line),
    });
    expect(code).toBe(3);
    expect(lines).toContain("  Type error: x");
    expect(lines.some((line) => line.startsWith("Built in"))).toBe(false);
  });
});
