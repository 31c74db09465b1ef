// Deterministic help-centre text: Markdown articles built from a general help-desk vocabulary
// mixed with topic words, so a search for a topic word hits a realistic fraction of articles
// (mostly its own topic, sometimes others) rather than all or none. Same seed, same corpus.

/** A small fast seeded PRNG (mulberry32); returns floats in [0, 1). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

export function between(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

interface Topic {
  name: string;
  /** Words typical of the topic; the first ones are its nouns, used in titles. */
  words: readonly string[];
}

export const TOPICS: readonly Topic[] = [
  { name: "Account", words: ["password", "login", "username", "profile", "email", "sign-in", "verification", "recovery", "reset"] },
  { name: "Billing", words: ["invoice", "payment", "charge", "receipt", "card", "billing", "tax", "currency"] },
  { name: "Refunds", words: ["refund", "return", "exchange", "credit", "dispute", "chargeback", "reimbursement", "policy"] },
  { name: "Shipping", words: ["shipping", "delivery", "tracking", "courier", "parcel", "address", "customs", "dispatch"] },
  { name: "Subscriptions", words: ["subscription", "plan", "renewal", "upgrade", "downgrade", "trial", "cancellation", "seat", "cancel"] },
  { name: "Security", words: ["two-factor", "authenticator", "session", "device", "encryption", "phishing", "lockout", "audit"] },
  { name: "Integrations", words: ["webhook", "integration", "zapier", "slack", "connector", "sync", "endpoint", "token"] },
  { name: "Notifications", words: ["notification", "alert", "digest", "reminder", "push", "unsubscribe", "newsletter", "inbox"] },
  { name: "Reports", words: ["report", "export", "dashboard", "chart", "spreadsheet", "metrics", "filter", "schedule"] },
  { name: "Team", words: ["permissions", "role", "invitation", "member", "owner", "workspace", "admin", "group"] },
  { name: "Mobile", words: ["mobile", "android", "iphone", "tablet", "offline", "camera", "widget", "update"] },
  { name: "Orders", words: ["order", "checkout", "cart", "coupon", "discount", "stock", "backorder", "confirmation"] },
  { name: "Privacy", words: ["privacy", "cookie", "consent", "gdpr", "deletion", "retention", "résumé", "données"] },
  { name: "Troubleshooting", words: ["error", "crash", "timeout", "browser", "cache", "outage", "latency", "café"] },
];

// Words any help article uses, whatever its topic.
const GENERAL = (
  "the you your to and a of in is can for this on with that if will be it from are or as by at " +
  "click select open page settings menu button option choose enter save change view find use need " +
  "want make sure then after before when new first next also may any each all our we screen section " +
  "tab list field details information example step time help right left top bottom see below above " +
  "follow these instructions contact support team minutes hours days account customers customer " +
  "please note only once again still not do does have has how what why where which there their " +
  "they them more most other some such than into over under without within between during through " +
  "available required optional default custom current previous manually automatically usually " +
  "quickly easily directly simply already until while because however instead otherwise another " +
  "check confirm review update remove add edit create delete enable disable allow turn keep start " +
  "stop send receive show hide appear display load refresh reload sign link copy paste type " +
  "message request status history record date name number value setting feature tool app website " +
  "link address phone country language region version product service plan item items people user users"
).split(" ");

const TITLE_TEMPLATES: ReadonlyArray<(noun: string, other: string) => string> = [
  (n) => `How to change your ${n}`,
  (n, o) => `Understanding ${n} and ${o}`,
  (n) => `${capitalize(n)} FAQ`,
  (n) => `Troubleshooting ${n} issues`,
  (n, o) => `Why is my ${n} not working with ${o}?`,
  (n) => `Getting started with ${n}`,
  (n, o) => `Managing ${n} settings for your ${o}`,
  (n) => `What happens to my ${n} when I cancel?`,
  (n, o) => `Setting up ${n} in a few steps (${o})`,
  (n) => `Best practices for ${n}`,
];

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function sentence(random: Random, topic: Topic): string {
  const length = between(random, 7, 18);
  const words: string[] = [];
  for (let i = 0; i < length; i += 1) {
    const roll = random();
    // About 9% own-topic words and 1.5% words of another topic: a topic word then appears in
    // most articles of its topic and in a small share of the others.
    if (roll < 0.09) words.push(pick(random, topic.words));
    else if (roll < 0.105) words.push(pick(random, pick(random, TOPICS).words));
    else words.push(pick(random, GENERAL));
  }
  return `${capitalize(words.join(" "))}.`;
}

function paragraph(random: Random, topic: Topic): string {
  const sentences: string[] = [];
  const count = between(random, 3, 6);
  for (let i = 0; i < count; i += 1) sentences.push(sentence(random, topic));
  return sentences.join(" ");
}

export interface GeneratedArticle {
  title: string;
  content: string;
}

/** One Markdown article of about 250 to 450 words, mostly about `topicIndex`. */
export function generateArticle(random: Random, topicIndex: number): GeneratedArticle {
  const topic = TOPICS[topicIndex % TOPICS.length]!;
  const title = pick(random, TITLE_TEMPLATES)(pick(random, topic.words.slice(0, 4)), pick(random, topic.words));
  const blocks: string[] = [paragraph(random, topic)];
  const sections = between(random, 2, 3);
  for (let s = 0; s < sections; s += 1) {
    blocks.push(`## ${capitalize(pick(random, topic.words))} ${pick(random, GENERAL)}`);
    blocks.push(paragraph(random, topic));
    if (random() < 0.5) {
      const steps = between(random, 2, 4);
      for (let i = 1; i <= steps; i += 1) blocks.push(`${i}. ${sentence(random, topic)}`);
    }
  }
  return { title, content: blocks.join("\n\n") };
}

/** Whole-word searches (one or two words), as visitors type them. */
export const WORD_QUERIES: readonly string[] = [
  "password",
  "invoice",
  "refund",
  "tracking",
  "subscription",
  "two-factor",
  "webhook",
  "notification",
  "export",
  "permissions",
  "android",
  "coupon",
  "cookie",
  "timeout",
  "reset password",
  "cancel subscription",
  "delivery address",
  "payment card",
  "slack integration",
  "data deletion",
];

/** Substrings (a word being typed, the middle of a word), served by the trigram indexes. */
export const SUBSTRING_QUERIES: readonly string[] = [
  "passw",
  "invoi",
  "refun",
  "shipp",
  "subscr",
  "authent",
  "webho",
  "notif",
  "spreadsh",
  "permiss",
  "ndroi",
  "checko",
  "consen",
  "timeo",
  "ivery",
  "ayment",
  "nnector",
  "ashboar",
  "verificat",
  "cafe",
];

/** Visitor questions for the knowledge agent. */
export const QUESTIONS: readonly string[] = [
  "How do I reset my password?",
  "Where can I download my invoice?",
  "How long does a refund take?",
  "My parcel tracking is not updating",
  "How do I cancel my subscription?",
  "How do I turn on two-factor authentication?",
  "Can I send webhook events to my server?",
  "How do I stop email notifications?",
  "Can I export a report to a spreadsheet?",
  "How do I change the permissions of a team member?",
  "The android app crashes on start",
  "My coupon code does not work at checkout",
  "How do you use cookies?",
  "The page shows a timeout error",
  "How do I change my delivery address?",
  "Which payment card types do you accept?",
  "How do I connect the slack integration?",
  "How do I request deletion of my data?",
  "Can I upgrade my plan during the trial?",
  "How do I invite a new member to my workspace?",
];
