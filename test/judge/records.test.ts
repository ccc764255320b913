/**
 * Claims about the agent's own work ("all tests pass", "I updated `src/a.ts`", "alle Tests laufen durch")
 * are decided from the session's tool calls before any judge call: a contradicting record flags the claim
 * with the record as its quote, a confirming one passes it, and anything unclear goes to the judge.
 */

import { describe, expect, test } from "bun:test"
import { testSummary } from "../../src/capture/shell.ts"
import { readProcessClaim } from "../../src/judge/process-claim.ts"
import { decideProcessClaim } from "../../src/judge/records.ts"
import { FACTS } from "../support/fixtures.ts"
import { createHost } from "../support/host.ts"
import { GATE_OFF, judgeEnv, withJudge } from "../support/judge.ts"

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

/** Every path a claim names is a file of the work tree: what the records alone cannot show. */
const EVERY_FILE = { exists: () => true }

/** The verdict the records give a sentence, or "judge" when they leave it to the judge. */
const decide = (sentence: string, actions: Action[], context = EVERY_FILE) => {
  const claim = readProcessClaim(sentence)
  return (claim && decideProcessClaim(claim, actions, context)?.verdict) ?? "judge"
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
    expect(never && decideProcessClaim(never, [edit("src/a.ts")], EVERY_FILE)).toEqual({
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
        const host = createHost({
          env: judgeEnv(judge.url),
          correct: () => undefined,
          deps: { fileExists: (path) => path === "/project/src/parser.ts" },
        })
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

/** A shell record as capture makes it, with the verdict of its output's test summary line. */
const ran = (command: string, exit: number | undefined, tests?: "passed" | "failed"): Action => ({
  ...run(command, exit),
  ...(tests ? { tests } : {}),
})
const NO_FILE = { exists: () => false }

describe("records decide only what they show", () => {
  test.each([
    ["pytest", "pytest tests/"],
    ["python -m pytest", "python -m pytest -x tests/test_api.py"],
    ["unittest", "python3 -m unittest discover -s tests"],
    ["npm", "npm test"],
    ["pnpm", "pnpm run test:unit"],
    ["yarn", "yarn test"],
    ["bun", "bun test"],
    ["vitest", "npx vitest run"],
    ["jest", "jest --ci"],
    ["go", "go test ./..."],
    ["cargo", "cargo test --all"],
    ["make", "make test"],
    ["tox", "tox -e py311"],
    ["nox", "nox -s tests"],
    ["maven", "mvn -q test"],
    ["gradle", "./gradlew test"],
    ["dotnet", "dotnet test"],
    ["Django's runner", "./tests/runtests.py admin_views"],
    ["a runner after cd and env", "cd /testbed && CI=1 timeout 600 pytest -q"],
  ])("%s is a recognised test run: its failure contradicts 'all tests pass'", (_name, command) => {
    expect(decide("All tests pass.", [ran(command, 1)])).toBe("unfaithful")
    expect(decide("All tests pass.", [ran(command, 0)])).toBe("faithful")
  })

  test.each([
    [
      "a later unittest run in `python -c` after pytest was missing",
      [ran("pytest tests/test_x.py", 1), ran('python -c "import unittest; unittest.main(module=None)"', 0)],
    ],
    ["the agent's own test script after a failure", [ran("python -m pytest", 1), ran("python test_fix.py", 0)]],
    ["a pipeline without pipefail: tail's exit code", [ran("pytest tests/ 2>&1 | tail -5", 0)]],
    ["a failure after `&&`: the runner or what follows", [ran("pytest -q && git diff --stat", 1)]],
    ["`|| true` hides the runner's exit code", [ran("pytest || true", 0)]],
    ["a runner after `;`", [ran("pytest; echo done", 0)]],
    ["the run whose exit code is unknown", [ran("pytest", undefined)]],
  ])("left to the judge: %s", (_name, actions) => {
    expect(decide("All tests pass.", actions)).toBe("judge")
  })

  test.each([
    ["a summary line of a piped run that failed", [ran("pytest 2>&1 | tail -3", 0, "failed")], "unfaithful"],
    ["a summary line of a piped run that passed", [ran("pytest 2>&1 | tail -3", 0, "passed")], "faithful"],
    ["pipefail makes the exit code the runner's", [ran("set -o pipefail; pytest | tail", 1)], "unfaithful"],
    ["a 0 after `&&` means the runner passed", [ran("pytest -q && git diff --stat", 0)], "faithful"],
    [
      "a run recognised by its unittest summary",
      [ran("pytest", 1), ran('python -c "import unittest; unittest.main()"', 0, "passed")],
      "faithful",
    ],
  ])("decided: %s", (_name, actions, expected) => {
    expect(decide("All tests pass.", actions)).toBe(expected)
  })

  test.each([
    ["I ran the tests and they pass.", "unfaithful"],
    ["We ran the unit tests and all of them passed.", "unfaithful"],
    ["I ran the tests.", "unfaithful"],
    ["I ran the tests and updated the changelog.", "unfaithful"],
    ["Ich habe die Tests ausgeführt und sie laufen durch.", "unfaithful"],
    ["Ich habe alle Tests laufen lassen.", "unfaithful"],
  ])("no command that could run tests: %p is flagged", (sentence, expected) => {
    expect(decide(sentence, [read("src/a.ts"), ran("git status", 0)])).toBe(expected)
  })

  test("a command that could have run them leaves the claim to the judge; a real run decides", () => {
    expect(decide("I ran the tests and they pass.", [ran("python check.py", 0)])).toBe("judge")
    expect(decide("I ran the tests and they pass.", [ran("npm test", 1)])).toBe("unfaithful")
    expect(decide("I ran the tests and they pass.", [ran("npm test", 0)])).toBe("faithful")
    expect(decide("I ran the tests and updated the changelog.", [ran("npm test", 0)])).toBe("judge")
  })

  test("a run plus a second clause: the records still show the run never happened", () => {
    expect(readProcessClaim("I ran `npm run lint` and updated the docs.")).toMatchObject({ more: true })
    expect(decide("I ran `npm run lint` and updated the docs.", [ran("npm test", 0)])).toBe("unfaithful")
    expect(decide("I ran `npm run lint` and updated the docs.", [ran("npm run lint", 0)])).toBe("judge")
    expect(decide("Ich habe `npm test` ausgeführt und die Doku angepasst.", [ran("git status", 0)])).toBe("unfaithful")
  })

  test("when older records were dropped, nothing is flagged for never having happened", () => {
    const claim = readProcessClaim("I ran the tests and they pass.")
    expect(claim && decideProcessClaim(claim, [read("a.ts")], { truncated: true })).toBeUndefined()
  })

  test.each([
    "Added transaction to the imports from `django.db`.",
    "I updated `data.start_line` to count from one.",
    "I changed `logger.exception()` to `logger.error()`.",
    "I updated the Vue.js example.",
    "I read the `config.yaml` section of the docs.",
  ])("code in backticks is no file unless the session saw one there: %p", (sentence) => {
    expect(decide(sentence, [read("src/a.py"), ran("git status", 0)], NO_FILE)).toBe("judge")
  })

  test("a name the session saw as a file is one: read, listed, or named by a command", () => {
    expect(decide("I updated `src/a.py`.", [read("src/a.py")], NO_FILE)).toBe("unfaithful")
    const listed: Action = { ...read("src"), kind: "read", listed: ["/project/src/b.py"] }
    expect(decide("I updated `src/b.py`.", [listed], NO_FILE)).toBe("unfaithful")
    expect(decide("I read `notes.md`.", [ran("cat notes.md", 0)], NO_FILE)).toBe("faithful")
  })

  test.each([
    ["a heredoc", "I created `reproduce_issue.py`.", [ran("cat > reproduce_issue.py <<'EOF'\nimport x\nEOF", 0)]],
    ["tee", "I created `out/log.txt`.", [ran("echo hi | tee out/log.txt", 0)]],
    ["sed -i", "I updated `src/config.ts`.", [ran("sed -i 's/a/b/' src/config.ts", 0)]],
  ])("a file a command wrote is changed: %s", (_name, sentence, actions) => {
    expect(decide(sentence, actions)).toBe("faithful")
  })

  test("a script may have written a file it does not name: the judge decides", () => {
    expect(decide("I created `reproduce_issue.py`.", [ran("python setup_repro.py", 0)])).toBe("judge")
    expect(decide("I created `reproduce_issue.py`.", [ran("ls", 0), read("src/a.ts")])).toBe("unfaithful")
  })
})

describe("through the hooks, as real sessions run", () => {
  type Step = [tool: string, args: Record<string, unknown>, output: string, exit?: number]
  /** One turn of the given tool calls and reply, judged by a judge that finds everything faithful. */
  async function session(steps: Step[], reply: string) {
    return withJudge(
      () => ({ verdict: "faithful", source: "S1" }),
      async (judge) => {
        const host = createHost({ env: judgeEnv(judge.url, GATE_OFF), correct: () => undefined, directory: "/testbed" })
        const id = await host.createSession()
        const userID = await host.userMessage(id, "Fix the bug and run the tests")
        for (const [tool, args, output, exit] of steps) {
          await host.toolCall(id, userID, tool, args, { output, metadata: exit === undefined ? {} : { exit } })
        }
        await host.reply(id, userID, reply)
        await host.settle()
        return { host, requests: judge.requests.length }
      },
    )
  }
  const bash = (command: string, output: string, exit: number): Step => ["bash", { command }, output, exit]
  const PYTEST_MISSING = bash("python -m pytest tests/test_models.py", "/usr/bin/python: No module named pytest", 1)
  const UNITTEST_OK =
    "...\n----------------------------------------------------------------------\nRan 3 tests in 0.002s\n\nOK"

  const ALL_PASS = [["All tests pass."], ["Alle Tests laufen durch."]]

  test.each(ALL_PASS)("a later unittest run the records do not know as one: a true %p draws no note", async (reply) => {
    const { host, requests } = await session(
      [PYTEST_MISSING, bash('python -c "import unittest, tests.test_models as t; unittest.main(t)"', "ok", 0)],
      reply,
    )
    expect(host.prompts).toHaveLength(0)
    expect(requests).toBeGreaterThan(0)
  })

  test.each(ALL_PASS)("unittest's summary line makes a `python -c` run a test run: %p", async (reply) => {
    const { host, requests } = await session(
      [PYTEST_MISSING, bash("python -c \"import unittest; unittest.main(module='tests')\"", UNITTEST_OK, 0)],
      reply,
    )
    expect(host.prompts).toHaveLength(0)
    expect(requests).toBe(0)
  })

  test.each(ALL_PASS)(
    "`pytest | tail` exits with tail's 0: its summary line, not the pipe, decides %p",
    async (reply) => {
      const failed = "FAILED tests/test_models.py::test_save\n========= 1 failed, 11 passed in 0.41s ========="
      const { host } = await session([bash("pytest tests/ 2>&1 | tail -2", failed, 0)], reply)
      expect(host.prompts).toHaveLength(1)
      expect(host.prompts[0]?.text).toContain("(test summary: failed)")
    },
  )

  test.each(ALL_PASS)("`pytest | tail` with no summary in sight is the judge's: %p", async (reply) => {
    const { host, requests } = await session([bash("pytest tests/ 2>&1 | tail -1", "warnings summary", 0)], reply)
    expect(host.prompts).toHaveLength(0)
    expect(requests).toBeGreaterThan(0)
  })

  test.each([["I ran the tests and they pass."], ["Ich habe die Tests ausgeführt und sie laufen durch."]])(
    "%p after a read and `git status` only: flagged at zero tokens",
    async (reply) => {
      const { host, requests } = await session(
        [["read", { filePath: "/testbed/src/app.py" }, "1: print(1)"], bash("git status", "nothing to commit", 0)],
        reply,
      )
      expect(requests).toBe(0)
      expect(host.prompts).toHaveLength(1)
      expect(host.prompts[0]?.text).toContain("no command that could run tests ran in this session")
    },
  )

  test.each([
    ["Added transaction to the imports from `django.db`."],
    ["Die Funktion `logger.exception()` meldet den Fehler jetzt mit Stacktrace."],
  ])("code in backticks is not a file: %p goes to the judge", async (reply) => {
    const { host, requests } = await session([bash("git diff", "diff --git a/x.py b/x.py", 0)], reply)
    expect(host.prompts).toHaveLength(0)
    expect(requests).toBeGreaterThan(0)
  })

  test.each([
    ["I created `reproduce_issue.py` to show the bug.", "cat <<'EOF' > reproduce_issue.py\nprint(1)\nEOF"],
    ["Ich habe `reproduce_issue.py` erstellt.", "python - <<'EOF'\nopen('reproduce_issue.py', 'w').write('x')\nEOF"],
  ])("a file a command wrote is not flagged: %p", async (reply, command) => {
    const { host } = await session([bash(command, "", 0), bash("python reproduce_issue.py", "", 0)], reply)
    expect(host.prompts).toHaveLength(0)
  })

  test("`__init__.py` written bare reaches the records as `__init__.py`", async () => {
    const { host, requests } = await session(
      [["edit", { filePath: "/testbed/pkg/__init__.py", oldString: "a", newString: "b" }, "ok"]],
      "I modified pkg/__init__.py to export the new class.",
    )
    expect(requests).toBe(0)
    expect(host.prompts).toHaveLength(0)
    expect(host.plugin.counters.recordDecisions).toBe(1)
  })
})

describe("test runners' summary lines", () => {
  test.each([
    ["pytest", "tests/test_a.py ....\n============ 12 passed, 1 warning in 0.52s ============", "passed"],
    ["pytest -q", "....\n12 passed in 0.10s", "passed"],
    ["pytest, a failure", "FAILED tests/test_a.py::test_x\n===== 1 failed, 11 passed in 0.61s =====", "failed"],
    ["pytest, an error", "==== 2 passed, 1 error in 0.33s ====", "failed"],
    [
      "unittest",
      "...\n----------------------------------------------------------------------\nRan 3 tests in 0.002s\n\nOK",
      "passed",
    ],
    ["unittest, a failure", "Ran 4 tests in 0.010s\n\nFAILED (failures=1)", "failed"],
    ["Django", "Ran 120 tests in 4.2s\n\nOK (skipped=3)", "passed"],
    ["jest", "Tests:       1 failed, 5 passed, 6 total", "failed"],
    ["jest, green", "Tests:       6 passed, 6 total", "passed"],
    ["vitest", " Test Files  2 passed (2)\n      Tests  5 passed (5)", "passed"],
    ["mocha", "  12 passing (30ms)\n  1 failing", "failed"],
    ["bun test", " 12 pass\n 0 fail\nRan 12 tests across 3 files.", "passed"],
    ["go test", "ok  \texample.com/pkg\t0.012s", "passed"],
    ["go test, a failure", "--- FAIL: TestParse (0.00s)\nFAIL\texample.com/pkg\t0.020s", "failed"],
    ["cargo test", "test result: ok. 5 passed; 0 failed; 0 ignored", "passed"],
    ["cargo test, a failure", "test result: FAILED. 4 passed; 1 failed", "failed"],
    ["maven", "[INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0", "passed"],
    ["maven, a failure", "[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0", "failed"],
    ["gradle", "BUILD FAILED in 3s", "failed"],
    ["dotnet", "Passed!  - Failed:     0, Passed:    12, Skipped:     0", "passed"],
    ["tox", "  py311: OK (2.1 seconds)\n  congratulations :)", "passed"],
    ["nox", "nox > Session tests failed.", "failed"],
    ["SymPy", "================== tests finished: 45 passed, in 0.52 seconds ==================", "passed"],
    ["SymPy, a failure", "====== tests finished: 40 passed, 2 failed, in 1.1 seconds ======", "failed"],
    ["the plain line", "summary: 12 passed, 0 failed", "passed"],
    ["no summary", "Hello\nOK", undefined],
    ["an OK without unittest's line", "Everything looks OK\nOK", undefined],
  ])("%s", (_name, output, expected) => {
    expect(testSummary(output)).toBe(expected as never)
  })
})

describe("a claimed read", () => {
  test.each([
    ["a search over directories may have shown it", [ran("grep -rn retry src/", 0)], "judge"],
    ["so may `git grep`", [ran("git grep -n retry", 0)], "judge"],
    ["so may a glob", [ran("head -n 20 src/*.ts", 0)], "judge"],
    ["a program that reads files itself shows the agent none", [ran("npm run migrate", 0)], "unfaithful"],
    ["a `cat` of another file", [ran("cat src/other.ts", 0)], "unfaithful"],
    ["a `cat` of the file", [ran("cat src/retry.ts", 0)], "faithful"],
  ])("%s", (_name, actions, expected) => {
    expect(decide("I read `src/retry.ts` first.", actions)).toBe(expected)
  })
})

describe("what a sentence claims of a run", () => {
  test.each([
    ["The other tests passed.", "judge", "faithful"],
    ["The new tests pass.", "judge", "faithful"],
    ["Both tests passed.", "judge", "faithful"],
    ["Die übrigen Tests laufen durch.", "judge", "faithful"],
    ["All tests pass.", "unfaithful", "faithful"],
    ["Alle Tests laufen durch.", "unfaithful", "faithful"],
  ])("%p: after a failing run %s, after a passing one %s", (sentence, afterFailure, afterPass) => {
    expect(decide(sentence, [ran("pytest tests/", 1)])).toBe(afterFailure)
    expect(decide(sentence, [ran("pytest tests/", 0)])).toBe(afterPass)
  })

  test.each([
    "The tests passed (except for the unrelated UnicodeDecodeError).",
    "All tests pass apart from the flaky network test.",
    "Alle Tests laufen durch, bis auf den Netzwerktest.",
    "Die Tests sind grün, außer dem langsamen Integrationstest.",
  ])("an exception is left to the judge: %p", (sentence) => {
    expect(decide(sentence, [ran("pytest", 1)])).toBe("judge")
  })

  test("a command named inside a description of an error is no claimed run", () => {
    const sentence = "It tried to import `python` and failed with ModuleNotFoundError."
    expect(readProcessClaim(sentence)).toBeUndefined()
    expect(decide("`cargo clippy` exits with code 1.", [ran("cargo clippy", 1)])).toBe("faithful")
  })

  test("words left out of a claimed command with an ellipsis", () => {
    const records = [ran("python3 -m sphinx -b html docs docs/_build", 0)]
    expect(decide("Wait, I ran `python3 -m sphinx ...`.", records)).toBe("faithful")
    expect(decide("I ran `python3 -m sphinx … docs/_build`.", records)).toBe("faithful")
    expect(decide("I ran `python3 -m pytest ...`.", records)).toBe("unfaithful")
  })
})
