// Fails fast, naming the variable, when the environment is invalid.
import { EnvError, env } from "../env.ts";

try {
  env();
} catch (error) {
  console.error(error instanceof EnvError ? error.message : String(error));
  process.exit(1);
}
