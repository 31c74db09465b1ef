// Starts the production app for the e2e suite on a fresh embedded database (e2e/.data).
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

rmSync(fileURLToPath(new URL("./.data", import.meta.url)), { recursive: true, force: true });
await import("../scripts/start.mjs");
