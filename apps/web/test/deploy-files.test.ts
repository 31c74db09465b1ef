// The files that run Parley where businesses run services (Dockerfile, .dockerignore, compose.yaml,
// deploy/nginx.conf, deploy/env.example, the README's operations table) checked against the code they
// describe, so that none of them goes stale without a failing test: no Docker engine is needed.
// The topology test (npm run test:topology) runs them for real where podman and nginx are present.
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { IMPORT_UPLOAD_MAX_BYTES } from "@parley/core/knowledge/limits";
import { SHUTDOWN_EXIT_MS } from "@parley/core/shutdown";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { APP_ENV_VARIABLES } from "~/env.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

// ---------- Dockerfile ----------

interface Stage {
  from: string;
  name: string;
  lines: string[];
}

/** The Dockerfile's instructions (continuation lines joined, comments dropped), split into stages. */
function dockerfile(): { args: Map<string, string>; stages: Stage[] } {
  const joined = read("Dockerfile")
    .split("\n")
    .filter((line) => !line.trim().startsWith("#"))
    .join("\n")
    .replace(/\\\n/g, " ");
  const args = new Map<string, string>();
  const stages: Stage[] = [];
  for (const line of joined.split("\n").map((text) => text.trim())) {
    if (!line) continue;
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from) stages.push({ from: from[1]!, name: from[2] ?? String(stages.length), lines: [] });
    else if (stages.length === 0) {
      const arg = /^ARG\s+(\w+)=(\S+)$/.exec(line);
      if (arg) args.set(arg[1]!, arg[2]!);
    } else stages.at(-1)!.lines.push(line);
  }
  return { args, stages };
}

/** The workspaces' folders, from the root package.json's globs (apps/*, packages/*). */
function workspaceFolders(): string[] {
  const globs: string[] = JSON.parse(read("package.json")).workspaces;
  return globs.flatMap((glob) => {
    const parent = glob.replace(/\/\*$/, "");
    return readdirSync(path.join(ROOT, parent))
      .map((name) => `${parent}/${name}`)
      .filter((dir) => existsSync(path.join(ROOT, dir, "package.json")));
  });
}

/** Node major versions the root package.json's engines admit (each ^ or >= clause, checked by major). */
function admitsNodeMajor(major: number): boolean {
  const range: string = JSON.parse(read("package.json")).engines.node;
  return range.split("||").some((clause) => {
    const caret = /^\s*\^(\d+)/.exec(clause);
    if (caret) return Number(caret[1]) === major;
    const atLeast = /^\s*>=\s*(\d+)/.exec(clause);
    return atLeast ? major >= Number(atLeast[1]) : false;
  });
}

describe("Dockerfile", () => {
  const { args, stages } = dockerfile();
  const runtime = stages.at(-1)!;

  it("builds in stages (install, build, production dependencies) and runs a slim last stage on ARG BASE", () => {
    expect(stages.map((stage) => stage.name)).toEqual(["manifests", "deps", "build", "prod-deps", "runtime"]);
    expect(runtime.from).toBe(`\${BASE}`);
    // The runtime stage copies what it runs from the others; it installs and builds nothing itself.
    expect(runtime.lines.filter((line) => /^RUN\b/.test(line)).join("\n")).not.toMatch(/npm (ci|install)|next build|npm run build/);
    for (const line of stages.flatMap((stage) => stage.lines)) {
      const from = /--from=(\S+)/.exec(line)?.[1];
      if (from)
        expect(
          stages.map((stage) => stage.name),
          line,
        ).toContain(from);
    }
  });

  it("defaults BASE to the official Node.js image of a supported LTS line (Node 20 is end of life)", () => {
    const base = args.get("BASE") ?? "";
    const major = Number(/^node:(\d+)-/.exec(base)?.[1]);
    expect(base).toMatch(/^node:\d+-bookworm-slim$/);
    expect(major % 2, "an even (LTS) major").toBe(0);
    expect(admitsNodeMajor(major), `engines admits Node ${major}`).toBe(true);
    expect(admitsNodeMajor(20), "engines no longer admits Node 20").toBe(false);
  });

  it("runs as a non-root user, checks /api/health, keeps DATA_DIR in a volume, drains on SIGTERM", () => {
    const user = runtime.lines.filter((line) => line.startsWith("USER ")).at(-1);
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER\s+(root|0)(:|$)/);
    const healthcheck = runtime.lines.find((line) => line.startsWith("HEALTHCHECK "));
    expect(healthcheck).toContain("/api/health");
    const dataDir = /DATA_DIR=(\S+)/.exec(runtime.lines.find((line) => line.includes("DATA_DIR=")) ?? "")?.[1];
    expect(dataDir).toBe("/data");
    expect(runtime.lines.find((line) => line.startsWith("VOLUME"))).toContain(`"${dataDir}"`);
    expect(runtime.lines).toContain("STOPSIGNAL SIGTERM");
    expect(runtime.lines).toContain('ENTRYPOINT ["node", "scripts/container.mjs"]');
    expect(existsSync(path.join(ROOT, "scripts/container.mjs"))).toBe(true);
  });

  it("installs from every workspace's package.json, so a new workspace cannot be left out of the image", () => {
    const manifests = stages.find((stage) => stage.name === "manifests")!;
    const copied = manifests.lines.filter((line) => line.startsWith("COPY ") && !line.includes("--from")).join("\n");
    for (const dir of workspaceFolders()) expect(copied, `manifests copies ${dir}/package.json`).toContain(`${dir}/package.json`);
    // Both installs start from that one list, and copy no package.json of their own.
    for (const name of ["deps", "prod-deps"]) {
      const stage = stages.find((candidate) => candidate.name === name)!;
      expect(stage.from, name).toBe("manifests");
      expect(
        stage.lines.filter((line) => line.startsWith("COPY ")),
        name,
      ).toEqual([]);
    }
  });

  it("copies only paths that exist and that .dockerignore lets into the build context", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#") && !line.startsWith("!"));
    for (const name of [".git", ".env", ".data", "**/node_modules", "**/.next"]) expect(ignored).toContain(name);
    for (const line of stages.flatMap((stage) => stage.lines).filter((text) => text.startsWith("COPY ") && !text.includes("--from"))) {
      const sources = line.split(/\s+/).slice(1, -1);
      for (const source of sources.filter((source) => source !== ".")) {
        expect(existsSync(path.join(ROOT, source)), `${source} exists`).toBe(true);
        expect(
          ignored.some((pattern) => source === pattern || source.startsWith(`${pattern}/`)),
          `${source} is not ignored`,
        ).toBe(false);
      }
    }
  });
});

// ---------- compose.yaml and nginx ----------

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  profiles?: string[];
  volumes?: string[];
  ports?: string[];
  stop_grace_period?: string;
}

// `merge`: the instances share their settings through a YAML anchor and merge keys (`<<: *app`).
const compose = parseYaml(read("compose.yaml"), { merge: true }) as { services: Record<string, ComposeService> };
const services = compose.services;
const instances = Object.entries(services).filter(([, service]) => service.command?.[0] === "serve");
const nginx = read("deploy/nginx.conf");

describe("compose.yaml", () => {
  it("runs PostgreSQL with pgvector, Redis, a one-shot migrate, two instances and nginx on one port", () => {
    expect(services.postgres?.image).toMatch(/^pgvector\/pgvector:pg\d+$/);
    expect(services.redis?.image).toMatch(/^redis:/);
    expect(services.migrate?.command).toEqual(["migrate"]);
    expect(instances.map(([name]) => name)).toEqual(["app1", "app2"]);
    expect(services.lb?.image).toMatch(/^nginx:/);
    expect(services.lb?.volumes).toContain("./deploy/nginx.conf:/etc/nginx/nginx.conf:ro");
    expect(services.lb?.ports).toHaveLength(1);
    // Only the balancer publishes a port of the cluster.
    for (const name of ["postgres", "redis", "migrate", "app1", "app2"]) expect(services[name]?.ports, name).toBeUndefined();
  });

  it("instances start after the migration succeeded and share the database, Redis, secret and proxy setting", () => {
    const [[, first], [, second]] = instances as [[string, ComposeService], [string, ComposeService]];
    for (const [name, service] of instances) {
      expect(service.depends_on?.migrate, name).toEqual({ condition: "service_completed_successfully" });
      expect(service.environment?.DATABASE_URL).toMatch(/^postgres:\/\/parley:\$\{POSTGRES_PASSWORD[^}]*\}@postgres:5432\/parley$/);
      expect(service.environment?.REDIS_URL).toBe("redis://redis:6379");
      expect(service.environment?.TRUST_PROXY).toBe("1");
      // Longer than the drain (the instance exits at SHUTDOWN_EXIT_MS at the latest).
      expect(Number.parseInt(service.stop_grace_period ?? "10s", 10) * 1000).toBeGreaterThan(SHUTDOWN_EXIT_MS);
    }
    expect(first.environment).toEqual(second.environment);
    expect(services.migrate?.environment).toEqual(first.environment);
    expect(first.environment?.NEXTAUTH_SECRET).toMatch(/^\$\{NEXTAUTH_SECRET:\?/);
  });

  it("has an embedded profile: the single container with its data folder in a volume", () => {
    const embedded = services.embedded;
    expect(embedded?.profiles).toEqual(["embedded"]);
    expect(embedded?.command).toEqual(["embedded"]);
    expect(embedded?.environment?.DATABASE_URL).toBeUndefined();
    expect(embedded?.volumes?.some((volume) => volume.endsWith(":/data"))).toBe(true);
  });

  it("takes every variable it interpolates from .env, whose example names each", () => {
    const example = envExampleNames();
    const interpolated = [...read("compose.yaml").matchAll(/\$\{(\w+)/g)].map((match) => match[1]!);
    expect(interpolated.length).toBeGreaterThan(5);
    for (const name of new Set(interpolated)) expect(example, `deploy/env.example names ${name}`).toContain(name);
  });
});

// Compose's own reading of the file (Debian's docker-compose 1.29 reads it without an engine):
// interpolation from a .env copied from the example, the schema, the profile's services.
const DOCKER_COMPOSE = ["/usr/bin/docker-compose", "/usr/local/bin/docker-compose"].find((file) => existsSync(file));

describe.skipIf(!DOCKER_COMPOSE)("compose.yaml as docker-compose reads it", () => {
  it("validates with the example's .env, and refuses to start without the session secret", () => {
    const folder = mkdtempSync(path.join(tmpdir(), "parley-compose-"));
    try {
      copyFileSync(path.join(ROOT, "compose.yaml"), path.join(folder, "compose.yaml"));
      cpSync(path.join(ROOT, "deploy"), path.join(folder, "deploy"), { recursive: true });
      copyFileSync(path.join(ROOT, "deploy/env.example"), path.join(folder, ".env"));
      const compose = (...args: string[]) =>
        execFileSync(DOCKER_COMPOSE!, ["-f", "compose.yaml", ...args], {
          cwd: folder,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        });
      expect(compose("config", "--quiet")).toBe("");
      expect(compose("config", "--services").trim().split("\n").sort()).toEqual([
        "app1",
        "app2",
        "embedded",
        "lb",
        "migrate",
        "postgres",
        "redis",
      ]);
      const env = readFileSync(path.join(folder, ".env"), "utf8");
      writeFileSync(path.join(folder, ".env"), env.replace(/^NEXTAUTH_SECRET=.*$/m, ""));
      expect(() => compose("config", "--quiet")).toThrow(/NEXTAUTH_SECRET/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("deploy/nginx.conf", () => {
  it("balances over exactly the compose file's instances", () => {
    const upstream = /upstream parley \{([\s\S]*?)\}/.exec(nginx)?.[1] ?? "";
    const servers = [...upstream.matchAll(/^\s*server\s+(\S+)/gm)].map((match) => match[1]);
    expect(servers).toEqual(instances.map(([name]) => `${name}:3000`));
  });

  it("passes WebSocket upgrades (the widget's /ws) and the client's address", () => {
    expect(nginx).toMatch(/map \$http_upgrade \$connection_upgrade \{\s*default upgrade;/);
    expect(nginx).toContain("proxy_http_version 1.1;");
    expect(nginx).toContain("proxy_set_header Upgrade $http_upgrade;");
    expect(nginx).toContain("proxy_set_header Connection $connection_upgrade;");
    expect(nginx).toContain("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;");
    // Longer than the widget socket's 30 s heartbeat, or idle sockets would be cut.
    expect(Number(/proxy_read_timeout (\d+)s;/.exec(nginx)?.[1])).toBeGreaterThan(30);
  });

  it("lets the largest body the app takes through (the app refuses oversized ones itself)", () => {
    const megabytes = Number(/client_max_body_size (\d+)m;/.exec(nginx)?.[1]);
    expect(megabytes * 1024 * 1024).toBeGreaterThanOrEqual(IMPORT_UPLOAD_MAX_BYTES);
  });
});

// ---------- environment variables ----------

function envExampleNames(): string[] {
  return [...read("deploy/env.example").matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!);
}

/** The variables named in the first column of the README's operations table. */
function readmeTableNames(): string[] {
  const section = /## Operations([\s\S]*?)(\n## |$)/.exec(read("README.md"))?.[1] ?? "";
  return [...section.matchAll(/^\| ([^|]+) \|/gm)].flatMap((match) =>
    [...match[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((name) => name[1]!),
  );
}

describe("environment variables", () => {
  // Read by the server process outside the app's settings (scripts/app-process.mjs, the image).
  const PROCESS_VARIABLES = ["NODE_OPTIONS", "MALLOC_ARENA_MAX", "MALLOC_MMAP_THRESHOLD_"];
  // compose.yaml's own (not the app's).
  const COMPOSE_VARIABLES = ["POSTGRES_PASSWORD", "PARLEY_PORT"];

  it("every variable the app reads is in the README's operations table", () => {
    const documented = readmeTableNames();
    for (const name of [...APP_ENV_VARIABLES, ...PROCESS_VARIABLES]) expect(documented, `README documents ${name}`).toContain(name);
  });

  it("deploy/env.example names only variables that something reads", () => {
    const known = new Set([...APP_ENV_VARIABLES, ...COMPOSE_VARIABLES]);
    for (const name of envExampleNames()) expect(known.has(name), `${name} is read by the app or compose.yaml`).toBe(true);
    for (const name of COMPOSE_VARIABLES) expect(readmeTableNames(), `README documents ${name}`).toContain(name);
  });
});
