// `npm start` runs this first: it fails fast, naming each bad variable, before the build.
import { EnvError } from "@parley/db";
import { appEnv } from "./env.ts";

try {
  appEnv();
} catch (error) {
  console.error(error instanceof EnvError ? error.message : String(error));
  process.exit(1);
}
