/**
 * What the tools really did: only a successful change counts (a failed edit, a refused write, a patch that
 * does not apply, a shell command that exits non-zero change nothing); `cp` changes its destination, `mv` both
 * ends; a patch is read for every file it touches; a claim about some tests is decided by the lines that show
 * those tests; a cited path (`AGENTS.md:42`, `app.ts#L10-L20`) is the file.
 */

import { describe, expect, test } from "bun:test"
import { toolRecord } from "../../src/capture/provenance.ts"
import { readProcessClaim } from "../../src/judge/process-claim.ts"
import { decideProcessClaim } from "../../src/judge/records.ts"
import type { ToolRecord } from "../../src/state/shapes.ts"
import { failedEditTurn } from "../support/turns.ts"

const DIR = "/project"

/** A record as capture makes it from one of opencode's tool calls (failed: a tool part with status error). */
const call = (
  tool: string,
  args: Record<string, unknown>,
  { output, exit, failed = false }: { output?: string; exit?: number; failed?: boolean } = {},
): ToolRecord =>
  toolRecord(
    { tool, args, metadata: exit === undefined ? {} : { exit }, title: "" },
    `${tool} ${String(args.filePath ?? args.command ?? "patch")}${failed ? " → failed" : ""}`,
    DIR,
    output,
    failed,
  )

const decide = (sentence: string, records: ToolRecord[]) => {
  const claim = readProcessClaim(sentence)
  const decision = claim && decideProcessClaim(claim, records, { exists: () => true })
  return decision ? [decision.verdict, decision.quote] : ["judge", ""]
}

const READ_APP = call("read", { filePath: `${DIR}/src/app.ts` }, { output: "1: export const port = 80" })

describe("only successful changes count", () => {
  test.each([
    ["edit", { filePath: `${DIR}/src/app.ts`, oldString: "port = 80", newString: "port = 8080" }],
    ["write", { filePath: `${DIR}/src/app.ts`, content: "x" }],
    ["multiedit", { filePath: `${DIR}/src/app.ts`, edits: [{ oldString: "a", newString: "b" }] }],
    ["apply_patch", { patchText: "*** Begin Patch\n*** Update File: src/app.ts\n@@\n-a\n+b\n*** End Patch" }],
  ])("a failed %s changed nothing: the claim is flagged with the failure as its quote", (tool, args) => {
    const [verdict, quote] = decide("I updated `src/app.ts` to use port 8080.", [
      READ_APP,
      call(tool, args, { failed: true }),
    ])
    expect(verdict).toBe("unfaithful")
    expect(quote).toContain("failed")
  })

  test("the failure quoted is the one on the file the claim names, not on another of the same name", () => {
    const patch = (file: string) => ({
      patchText: `*** Begin Patch\n*** Update File: ${file}\n@@\n-a\n+b\n*** End Patch`,
    })
    const root = call("apply_patch", { ...patch("README.md"), filePath: `${DIR}/README.md` }, { failed: true })
    const nested = call(
      "apply_patch",
      { ...patch("core/README.md"), filePath: `${DIR}/core/README.md` },
      { failed: true },
    )
    for (const records of [
      [root, nested],
      [nested, root],
    ]) {
      const [verdict, quote] = decide("Updated `README.md:5`.", records)
      expect(verdict).toBe("unfaithful")
      expect(quote).toBe(`apply_patch ${DIR}/README.md → failed`)
    }
    expect(decide("Updated `core/README.md`.", [nested, root])[1]).toBe(`apply_patch ${DIR}/core/README.md → failed`)
  })

  test("the same edit, succeeding, confirms the claim", () => {
    const edit = call("edit", { filePath: `${DIR}/src/app.ts`, oldString: "a", newString: "b" })
    expect(decide("I updated `src/app.ts` to use port 8080.", [READ_APP, edit])[0]).toBe("faithful")
  })

  test("a shell edit that exits non-zero changed nothing", () => {
    const sed = call("bash", { command: "sed -i 's/80/8080/' src/app.ts" }, { output: "sed: -e expression", exit: 1 })
    expect(decide("I updated `src/app.ts` to use port 8080.", [READ_APP, sed])[0]).toBe("unfaithful")
    const ok = call("bash", { command: "sed -i 's/80/8080/' src/app.ts" }, { output: "", exit: 0 })
    expect(decide("I updated `src/app.ts` to use port 8080.", [READ_APP, ok])[0]).toBe("faithful")
  })

  test("a failed run is no run of its command", () => {
    const refused = call("bash", { command: "npm run lint" }, { failed: true })
    expect(decide("I ran `npm run lint`.", [refused])[0]).toBe("unfaithful")
  })
})

describe("cp changes its destination, mv both ends", () => {
  const cp = call("bash", { command: "cp src/app.ts src/app.ts.backup" }, { output: "", exit: 0 })
  test("a copy does not change its source", () => {
    expect(decide("I updated `src/app.ts` to use port 8080.", [READ_APP, cp])[0]).toBe("unfaithful")
  })
  test("a copy changes its destination", () => {
    expect(decide("I created `src/app.ts.backup` before the change.", [READ_APP, cp])[0]).toBe("faithful")
  })
  test("a move changes both ends", () => {
    const mv = call("bash", { command: "mv src/old.ts src/new.ts" }, { output: "", exit: 0 })
    expect(decide("I changed `src/old.ts` and `src/new.ts`.", [mv])[0]).toBe("faithful")
  })
  test("cp -t names its destination first", () => {
    const into = call("bash", { command: "cp -t dist/ src/a.ts" }, { output: "", exit: 0 })
    expect(decide("I updated `src/a.ts` for the release.", [into])[0]).toBe("unfaithful")
  })
})

describe("a patch is read for every file it touches", () => {
  test("every file of an apply_patch envelope, a moved file at both ends", () => {
    const patch = call("apply_patch", {
      patchText:
        "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: src/b.ts\n+z\n*** Update File: src/c.ts\n*** Move to: src/d.ts\n@@\n-p\n+q\n*** End Patch",
    })
    for (const file of ["src/a.ts", "src/b.ts", "src/c.ts", "src/d.ts"])
      expect(decide(`I updated \`${file}\` as planned.`, [patch])[0]).toBe("faithful")
  })
  test("a unified diff names its files in its headers", () => {
    const patch = call("patch", { patchText: "--- a/lib/x.py\n+++ b/lib/x.py\n@@ -1 +1 @@\n-a\n+b\n" })
    expect(decide("I updated `lib/x.py` as planned.", [patch])[0]).toBe("faithful")
  })
  test("multiedit names a file per edit", () => {
    const multi = call("multiedit", {
      filePath: `${DIR}/src/a.ts`,
      edits: [{ filePath: `${DIR}/src/e.ts`, oldString: "a", newString: "b" }],
    })
    expect(decide("I updated `src/e.ts` as planned.", [multi])[0]).toBe("faithful")
  })
})

describe("claims about some tests", () => {
  const UNITTEST =
    "test_merge_keys (tests.test_merge.MergeTests) ... ok\ntest_merge_nested (tests.test_merge.MergeTests) ... ok\n" +
    "test_diff_empty (tests.test_diff.DiffTests) ... ERROR\n\nRan 3 tests in 0.004s\n\nFAILED (errors=1)"
  const run = call("bash", { command: "python -m unittest -v" }, { output: UNITTEST, exit: 1 })

  test("the merge tests pass, though the run failed elsewhere", () => {
    expect(decide("The merge tests pass.", [run])[0]).toBe("faithful")
  })
  test("the diff tests passing is contradicted by their own line", () => {
    const [verdict, quote] = decide("The diff tests pass.", [run])
    expect(verdict).toBe("unfaithful")
    expect(quote).toContain("test_diff_empty")
  })
  test("tests the output does not show go to the judge", () => {
    expect(decide("The parser tests pass.", [run])[0]).toBe("judge")
  })
  test("all tests are still decided by the whole run", () => {
    expect(decide("All tests pass.", [run])[0]).toBe("unfaithful")
  })
  test.each([
    [
      "pytest -v",
      "tests/test_merge.py::test_keys PASSED\ntests/test_io.py::test_read FAILED\n=== 1 failed, 1 passed in 0.1s ===",
    ],
    ["go test -v ./...", "--- PASS: TestMergeKeys (0.00s)\n--- FAIL: TestReadFile (0.00s)\nFAIL\tpkg\t0.01s"],
    ["cargo test", "test merge::keys ... ok\ntest io::read ... FAILED\ntest result: FAILED. 1 passed; 1 failed"],
    ["bun test", "(pass) merge > keys\n(fail) io > read\n 1 pass\n 1 fail"],
  ])("other runners' lines (%s)", (command, output) => {
    const records = [call("bash", { command }, { output, exit: 1 })]
    expect(decide("The merge tests pass.", records)[0]).toBe("faithful")
  })
})

describe("citations resolve to the file", () => {
  const edit = call("edit", { filePath: `${DIR}/AGENTS.md`, oldString: "a", newString: "b" })
  const read = call("read", { filePath: `${DIR}/src/app.ts` }, { output: "1: x" })
  test.each([
    ["I updated `AGENTS.md:42` with the new rule.", edit],
    ["I updated `AGENTS.md:40-44` with the new rule.", edit],
    ["I read `src/app.ts#L10-L20` before the change.", read],
    ["I read `src/app.ts:10:5` before the change.", read],
    ["I read src/app.ts (line 42) before the change.", read],
    ["Ich habe `AGENTS.md:42` angepasst.", edit],
  ])("%p", (sentence, record) => {
    expect(decide(sentence, [record])[0]).toBe("faithful")
  })
})

describe("the note's evidence for a file never read", () => {
  test("names files nearest first, and no searched directory", () => {
    const records = [
      call("grep", { pattern: "Service", path: `${DIR}/api` }, { output: "Found 0 matches" }),
      call("read", { filePath: `${DIR}/src/main.ts` }, { output: "1: x" }),
      call("read", { filePath: `${DIR}/api/v1/user.proto` }, { output: "1: x" }),
      call("read", { filePath: `${DIR}/README.md` }, { output: "1: x" }),
    ]
    const [verdict, quote] = decide("I reviewed `api/v1/order.proto` closely.", records)
    expect(verdict).toBe("unfaithful")
    expect(quote).toBe("files read in this session: v1/user.proto, project/readme.md, src/main.ts")
  })
})

describe("through the hooks: a failed edit reaches the plugin as an error part", () => {
  test("the claim that it changed the file draws a note that quotes the failure", async () => {
    const { host } = await failedEditTurn(DIR)
    expect(host.prompts).toHaveLength(1)
    expect(host.prompts[0]?.text).toContain("oldString not found")
  })
})

describe("sensitive is decided by the edited file's own path", () => {
  test("a patch to a .md file that mentions .env is no sensitive call; one to .env is", async () => {
    const { describeToolCall } = await import("../../src/capture/provenance.ts")
    const docs =
      "*** Begin Patch\n*** Update File: docs/setup.md\n@@\n-Copy the file.\n+Copy `.env.example` to `.env`.\n*** End Patch"
    const line = describeToolCall({ tool: "apply_patch", args: { patchText: docs }, metadata: {}, title: "" }, DIR)
    expect(line).toBe("patched docs/setup.md")
    const secret = "*** Begin Patch\n*** Update File: .env\n@@\n-A=1\n+A=2\n*** End Patch"
    const withheld = describeToolCall(
      { tool: "apply_patch", args: { patchText: secret }, metadata: {}, title: "" },
      DIR,
    )
    expect(withheld).toContain("details withheld")
  })
})
