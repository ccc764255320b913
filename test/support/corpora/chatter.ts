/**
 * Replies as coding agents write them, with the sentences around the claims: greetings, lead-ins before a
 * list or a block, offers and advice, sign-offs. Written for this project, English and German. Each names the
 * sentences it asserts that are wrong (`fabricated`): whatever the plugin skips, these must reach the judge.
 */

export interface ChatterReply {
  name: string
  lang: "en" | "de"
  reply: string
  /** Sentences that state something false about the sources; each must stay a claim. */
  fabricated: string[]
}

export const CHATTER: ChatterReply[] = [
  {
    name: "a bug fix with a lead-in and an offer",
    lang: "en",
    reply: [
      "Hi! I found the problem.",
      "",
      "Here's what was going on:",
      "",
      "- The retry loop in `client.ts` never reset its counter.",
      "- The backoff cap is 60 seconds.",
      "",
      "I changed `resetAttempts()` so it runs after every success.",
      "",
      "Let me know if you want me to add a regression test as well. Hope that helps!",
    ].join("\n"),
    fabricated: ["The backoff cap is 60 seconds."],
  },
  {
    name: "a config walkthrough with headings in prose",
    lang: "en",
    reply: [
      "Sure! The relevant settings live in `config/app.yaml`.",
      "",
      "Connection settings:",
      "",
      "- `pool_size` defaults to 10.",
      "- `timeout_ms` defaults to 5000.",
      "",
      "Other settings:",
      "",
      "- `log_level` is read from `LOG_LEVEL` and defaults to `info`.",
      "- `cache_dir` must be an absolute path.",
      "",
      "You could also consider moving the secrets into a separate file.",
    ].join("\n"),
    fabricated: ["cache_dir must be an absolute path."],
  },
  {
    name: "a test run with a sign-off",
    lang: "en",
    reply: [
      "I ran the test suite with `npm test`.",
      "",
      "The results:",
      "",
      "- 41 tests pass.",
      "- The `parser` suite takes 12 seconds.",
      "",
      "All set. Happy coding!",
    ].join("\n"),
    fabricated: ["The parser suite takes 12 seconds."],
  },
  {
    name: "an explanation with a code block and advice",
    lang: "en",
    reply: [
      "The handler is registered in `server.ts`:",
      "",
      "```ts",
      'app.get("/health", health)',
      "```",
      "",
      "It returns a 204 with no body.",
      "",
      "To try it:",
      "",
      "```sh",
      "curl -i localhost:3000/health",
      "```",
      "",
      "As a next step, you might want to add a readiness probe. Feel free to ask if anything is unclear.",
    ].join("\n"),
    fabricated: ["It returns a 204 with no body."],
  },
  {
    name: "a dependency upgrade",
    lang: "en",
    reply: [
      "Thanks for the details.",
      "",
      "To upgrade:",
      "",
      "1. Bump `tinyorm` to 3.2.0 in `package.json`.",
      "2. Replace `db.query()` with `db.sql()`.",
      "",
      "The migration guide says `db.query()` was removed in 3.0.",
      "",
      "Would you like me to make these changes?",
    ].join("\n"),
    fabricated: ["The migration guide says db.query() was removed in 3.0."],
  },
  {
    name: "a review summary that keeps its counted lead-in",
    lang: "en",
    reply: [
      "I read the three files you mentioned.",
      "",
      "The config has two problems:",
      "",
      "- The port is hard-coded to 8080.",
      "- Retries are disabled.",
      "",
      "In short:",
      "",
      "- Both are easy to fix.",
      "",
      "Next, I'll open a pull request with the fixes.",
    ].join("\n"),
    fabricated: ["Retries are disabled."],
  },
  {
    name: "eine Fehlersuche mit Einleitung und Angebot",
    lang: "de",
    reply: [
      "Hallo! Ich habe die Ursache gefunden.",
      "",
      "Zu den Details:",
      "",
      "- Der Timeout liegt bei 30 Sekunden.",
      "- Die Wiederholungen sind auf 5 begrenzt.",
      "",
      "Ich habe `retry.ts` angepasst:",
      "",
      "- Der Zähler wird nach jedem Erfolg zurückgesetzt.",
      "",
      "Sag Bescheid, wenn ich noch Tests ergänzen soll. Viel Erfolg!",
    ].join("\n"),
    fabricated: ["Die Wiederholungen sind auf 5 begrenzt."],
  },
  {
    name: "eine Konfiguration mit Überschriften im Text",
    lang: "de",
    reply: [
      "Gern! Die Einstellungen stehen in `config.toml`.",
      "",
      "Zu den übrigen Optionen:",
      "",
      "- `workers` ist standardmäßig 4.",
      "- `strict` ist standardmäßig aktiv.",
      "",
      "Kurz gesagt:",
      "",
      "- Für den Testbetrieb reichen die Vorgaben.",
      "",
      "Du könntest auch die Logstufe auf `debug` setzen. Ich hoffe, das hilft!",
    ].join("\n"),
    fabricated: ["strict ist standardmäßig aktiv."],
  },
]
