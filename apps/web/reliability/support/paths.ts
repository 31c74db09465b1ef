// Where things are, from this file's location (tests and the global setup run with any cwd).
import { fileURLToPath } from "node:url";

export const APP_DIR = fileURLToPath(new URL("../..", import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL("../../../..", import.meta.url));
export const SERVER_ENTRY = fileURLToPath(new URL("../../server.mjs", import.meta.url));
