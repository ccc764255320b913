/**
 * Claims about the agent's own work ("all tests pass", "I updated `src/a.ts`", "alle Tests laufen durch")
 * are decided from the session's tool calls before any judge call: a contradicting record flags the claim
 * with the record as its quote, a confirming one passes it, and anything unclear goes to the judge.
 */

import { describe, expect, test } from "bun:test"
import { decideProcessClaim, readProcessClaim } from "../src/claims/process.ts"
import { FACTS } from "./support/fixtures.ts"
import { createHost } from "./support/host.ts"
import { judgeEnv, withJudge } from "./support/judge.ts"

type Action = Parameters<typeof decideProcessClaim>[1][number]
const run = (command: string, exit?: number): Action => ({
  kind: "run",
  paths: [],
  command,
  exit,
  line: `ran \`${command}\`${exit === undefined ? "" : ` → exit ${exit}`}`,
})
const edit = (path: string): Action => ({
  kind: "change",
  paths: [`/project/${path}`],
  command: undefined,
  exit: undefined,
  line: `edited ${path}`,
})
const read = (path: string): Action => ({
  kind: "read",
  paths: [`/project/${path}`],
  command: undefined,
  exit: undefined,
  line: `read ${path}`,
})
const delegate: Action = {
  kind: "delegate",
  paths: [],
  command: undefined,
  exit: undefined,
  line: "delegated to a subagent: x",
}

/** The verdict the records give a sentence, or "judge" when they leave it to the judge. */
const decide = (sentence: string, actions: Action[]) => {
  const claim = readProcessClaim(sentence)
  return (claim && decideProcessClaim(claim, actions)?.verdict) ?? "judge"
}

describe("reading a claim about the agent's own work", () => {
  test.each([
    ["All tests pass.", { kind: "outcome", subject: "tests", passed: true }],
    ["All 42 tests passed (12 suites).", { kind: "outcome", subject: "tests", passed: true }],
    ["The test suite is green again.", { kind: "outcome", subject: "tests", passed: true }],
    ["Two tests still fail.", { kind: "outcome", subject: "tests", passed: false }],
    ["The build succeeds.", { kind: "outcome", subject: "build", passed: true }],
    ["Everything compiles cleanly.", { kind: "outcome", subject: "build", passed: true }],
    ["Alle Tests laufen durch.", { kind: "outcome", subject: "tests", passed: true }],
    ["Die Tests sind jetzt grün.", { kind: "outcome", subject: "tests", passed: true }],
    ["Der Build läuft wieder durch.", { kind: "outcome", subject: "build", passed: true }],
    ["Drei Tests schlagen noch fehl.", { kind: "outcome", subject: "tests", passed: false }],
    ["I ran `npm run lint` and it reports no errors.", { kind: "command", command: "npm run lint", outcome: "passed" }],
    ["`cargo clippy` exits with code 1.", { kind: "command", command: "cargo clippy", outcome: "failed" }],
    ["I ran `git status`.", { kind: "command", command: "git status", outcome: "ran" }],
    ["Ich habe `npm test` ausgeführt.", { kind: "command", command: "npm test", outcome: "ran" }],
    // a run and its outcome in one sentence: the outcome is what the records must settle
    ["I ran `npm test` and all tests pass.", { kind: "outcome", subject: "tests", passed: true, ranIt: true }],
    [
      "I updated `src/config.ts` to read the new variable.",
      { kind: "file", action: "change", paths: ["src/config.ts"] },
    ],
    ["Updated `docs/setup.md` with the new steps.", { kind: "file", action: "change", paths: ["docs/setup.md"] }],
    ["Ich habe `src/app.py` angepasst.", { kind: "file", action: "change", paths: ["src/app.py"] }],
    ["Ich habe `docs/api.md` überarbeitet.", { kind: "file", action: "change", paths: ["docs/api.md"] }],
    ["I read src/server/routes.ts first.", { kind: "file", action: "read", paths: ["src/server/routes.ts"] }],
  ])("%p", (sentence, expected) => {
    expect(readProcessClaim(sentence)).toMatchObject(expected)
  })

  test.each([
    "Run `npm test` to check that all tests pass.",
    "All tests should pass now.",
    "Once the build succeeds, deploy it.",
    "If the tests pass, merge the branch.",
    "Not all tests pass yet.",
    "Do all tests pass?",
    "The tests cover the parser and the cache.",
    "The test passes an empty object to parseConfig.",
    "This function builds the request body.",
    "The build step copies the assets.",
    "You updated `src/a.ts` yesterday.",
    "The file `src/config.ts` reads the environment.",
    "Wenn alle Tests durchlaufen, ist der Fix fertig.",
    "Die Tests sollten jetzt grün sein.",
    "Bitte führe `npm test` aus.",
    "The retry helper lives in src/retry.ts.",
    "I will update `README.md` next.",
    "It makes 5 attempts before it gives up.",
    // a run with a second claim the records do not cover: the judge reads the whole sentence
    "I ran `npm run lint` and updated the docs.",
    "I ran `npm test`, then fixed the flaky parser test.",
    "Ich habe `npm test` ausgeführt und die Doku angepasst.",
  ])("not a claim the records can settle: %p", (sentence) => {
    expect(readProcessClaim(sentence)).toBeUndefined()
  })
})

describe("deciding it from the records", () => {
  test.each([
    ["the last test command failed", "All tests pass.", [run("npm test", 0), run("npm test", 1)], "unfaithful"],
    ["the last test command passed", "All tests pass.", [run("npm test", 1), run("npm test", 0)], "faithful"],
    ["a failure claim after a green run", "Two tests still fail.", [run("bun test", 0)], "unfaithful"],
    ["a test run of unknown outcome", "All tests pass.", [run("pytest -q")], "judge"],
    [
      "no test ran, and the agent says it ran them",
      "I ran the tests and all tests pass.",
      [read("a.ts")],
      "unfaithful",
    ],
    ["no test ran, and the claim may repeat the user", "All tests pass.", [read("a.ts")], "judge"],
    ["the tests ran in a subagent", "I ran the tests and all tests pass.", [delegate], "judge"],
    ["a build claim after tsc failed", "The build succeeds.", [run("npx tsc --noEmit", 2)], "unfaithful"],
    ["a build claim after a green build", "Der Build läuft wieder durch.", [run("npm run build", 0)], "faithful"],
    ["German tests after a red run", "Alle Tests laufen durch.", [run("cargo test", 101)], "unfaithful"],
    [
      "a command claim that matches",
      "I ran `npm run lint` and it reports no errors.",
      [run("npm run lint", 0)],
      "faithful",
    ],
    [
      "a command claim against its exit code",
      "I ran `npm run lint` and it reports no errors.",
      [run("npm run lint", 1)],
      "unfaithful",
    ],
    ["a command the agent never ran", "I ran `git status`.", [run("npm test", 0)], "unfaithful"],
    [
      "an edit that happened",
      "I updated `src/config.ts` to read the new variable.",
      [edit("src/config.ts")],
      "faithful",
    ],
    [
      "an edit that never happened",
      "I updated `src/config.ts` to read the new variable.",
      [read("src/config.ts")],
      "unfaithful",
    ],
    [
      "an edit made by a shell command",
      "I updated `src/config.ts`.",
      [run("sed -i s/a/b/ src/config.ts", 0)],
      "faithful",
    ],
    ["an edit in a subagent", "I updated `src/config.ts`.", [delegate], "judge"],
    ["a read that happened", "I read src/server/routes.ts first.", [read("src/server/routes.ts")], "faithful"],
    ["a read that never happened", "I read src/server/routes.ts first.", [read("src/app.ts")], "unfaithful"],
  ])("%s", (_name, sentence, actions, expected) => {
    expect(decide(sentence, actions)).toBe(expected)
  })

  test("a contradiction quotes the record that decides it", () => {
    const claim = readProcessClaim("All tests pass.")
    const decision = claim && decideProcessClaim(claim, [run("npm test", 0), run("npm test", 1)])
    expect(decision).toEqual({ verdict: "unfaithful", quote: "ran `npm test` → exit 1" })
    const never = readProcessClaim("I updated `src/config.ts`.")
    expect(never && decideProcessClaim(never, [edit("src/a.ts")])).toEqual({
      verdict: "unfaithful",
      quote: "files changed in this session: src/a.ts",
    })
  })
})

/**
 * Ordinary sentences of agent replies, none of them false about what the agent did, against a session that
 * read files, edited one and ran green tests and a build. The records must flag none of them.
 */
const ORDINARY = [
  "The parser now accepts trailing commas.",
  "I updated `src/parser.ts` so that trailing commas are accepted.",
  "All tests pass.",
  "The build succeeds.",
  "I ran `npm test` and all 48 tests passed.",
  "The tests for the cache live in test/cache.test.ts.",
  "The test file covers the retry path.",
  "Each test builds its own fixture.",
  "The build script copies the static assets to dist/.",
  "The config file is read once at startup.",
  "src/parser.ts exports one function.",
  "I read `src/parser.ts` and `README.md`.",
  "The README describes the install steps.",
  "Run `npm run build` before you publish.",
  "You can run the tests with `npm test`.",
  "After the change, parsing an empty file returns an empty list.",
  "The failing test was the one for empty input; it passes now.",
  "Die Funktion liest die Datei einmal beim Start.",
  "Ich habe `src/parser.ts` angepasst.",
  "Alle Tests laufen durch.",
  "Der Build läuft durch.",
  "Die Tests liegen in test/cache.test.ts.",
  "Führe `npm test` aus, um das zu prüfen.",
  "The CI pipeline runs the tests on every push.",
  "The previous build failed because of a missing import.",
  "I also looked at the changelog.",
  "Tests that touch the network are skipped in CI.",
  "The linter reports style problems, not bugs.",
  "No file outside src/ was changed.",
  "The change is small: one function and its test.",
]

describe("no false flags on ordinary replies", () => {
  const session = [
    read("src/parser.ts"),
    read("README.md"),
    edit("src/parser.ts"),
    run("npm test", 0),
    run("npm run build", 0),
  ]
  test.each(ORDINARY)("%p is not flagged", (sentence) => {
    expect(decide(sentence, session)).not.toBe("unfaithful")
  })

  test("the records decide a share of them, and flag none", () => {
    const decided = ORDINARY.filter((sentence) => decide(sentence, session) !== "judge")
    expect(decided.length).toBeGreaterThanOrEqual(6)
    expect(ORDINARY.filter((sentence) => decide(sentence, session) === "unfaithful")).toEqual([])
  })
})

describe("through the hooks", () => {
  /** A turn: the agent runs `npm test` with the given exit code, then replies. */
  async function testedTurn(exit: number, reply: string) {
    return withJudge(
      () => ({ verdict: "faithful", source: "S1" }),
      async (judge) => {
        const host = createHost({ env: judgeEnv(judge.url), correct: () => undefined })
        const session = await host.createSession()
        const userID = await host.userMessage(session, "Fix the parser and run the tests")
        await host.toolCall(session, userID, "read", { filePath: FACTS.path }, { output: FACTS.text })
        await host.toolCall(
          session,
          userID,
          "bash",
          { command: "npm test", description: "Run the tests" },
          { output: exit === 0 ? "48 pass" : "3 fail", metadata: { exit } },
        )
        await host.reply(session, userID, reply)
        await host.settle()
        return { host, requests: judge.requests.length }
      },
    )
  }

  test("a failed test run contradicts 'all tests pass': flagged with the record, no judge request", async () => {
    const { host, requests } = await testedTurn(1, "All tests pass.")
    expect(requests).toBe(0)
    expect(host.plugin.counters.recordDecisions).toBe(1)
    expect(host.prompts).toHaveLength(1)
    expect(host.prompts[0]?.text).toContain(
      '"All tests pass." [source: tool calls of this session] The source says: "ran `npm test` → exit 1".',
    )
  })

  test("a green test run confirms it: silent, no judge request", async () => {
    const { host, requests } = await testedTurn(0, "All tests pass.")
    expect(requests).toBe(0)
    expect(host.prompts).toHaveLength(0)
  })

  test("a claim about an edit that never happened is flagged, with the files that did change", async () => {
    const { host } = await testedTurn(0, "I updated `src/parser.ts` to accept trailing commas.")
    expect(host.prompts[0]?.text).toContain('The source says: "no file was changed in this session".')
  })
})
