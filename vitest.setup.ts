// Every test file: logging off unless LOG_LEVEL asks for it (the app sets the level at start-up
// from its settings; tests have no start-up).
import { configureLogging, LOG_LEVELS, type LogLevel } from "@parley/core";

const requested = process.env.LOG_LEVEL as LogLevel | undefined;
configureLogging({ level: requested && LOG_LEVELS.includes(requested) ? requested : "silent" });
