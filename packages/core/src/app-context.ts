// The whole context the app builds at start-up (and tests build over a throwaway database): what
// every module asks for, together. Operations take the narrowest context they need.
import type { HelpContext } from "./help/context.ts";
import type { ImagesContext } from "./images/images.ts";
import type { VoiceContext } from "./voice/context.ts";

export type AppContext = VoiceContext & ImagesContext & HelpContext;
