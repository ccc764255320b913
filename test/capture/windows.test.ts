/**
 * opencode on Windows: tool calls name files as `C:\repo\src\a.ts`, commands carry backslashes (cmd, PowerShell),
 * and outputs end their lines with `\r\n`. Capture, the sensitive-path rules and the records read them as they
 * read the same calls on Linux.
 */

import { describe, expect, test } from "bun:test"
import {
  describeSource,
  editedPaths,
  resolvePath,
  shellWrittenPaths,
  type ToolCall,
  toolRecord,
} from "../../src/capture/provenance.ts"
import { dropSensitiveLines, touchesSensitivePath } from "../../src/capture/sensitive.ts"
import { namedFiles, splitCommand, testSummary } from "../../src/capture/shell.ts"
import { readProcessClaim } from "../../src/judge/process-claim.ts"
import { decideProcessClaim } from "../../src/judge/records.ts"
import { createHost } from "../support/host.ts"
import { judgeEnv, withJudge } from "../support/judge.ts"

const REPO = "C:\\repo"
const A_TS = "c:/repo/src/a.ts"

const call = (tool: string, args: Record<string, unknown>, metadata: Record<string, unknown> = {}): ToolCall => ({
  tool,
  args,
  metadata,
  title: tool,
})

describe("sensitive paths, spelled the Windows way", () => {
  test.each([
    ["C:\\repo\\.env", true],
    ["C:\\repo\\.env.local", true],
    ["C:\\Users\\me\\.ssh\\id_ed25519", true],
    ["C:\\Users\\me\\.ssh\\config", true],
    ["C:\\Users\\me\\.aws\\credentials", true],
    ["C:\\repo\\certs\\Server.PEM", true],
    ["C:\\Users\\me\\.npmrc", true],
    ["\\\\fileserver\\share\\.netrc", true],
    ["c:/repo/.env", true],
    ["C:\\repo\\src\\a.ts", false],
    ["C:\\repo\\src\\env.ts", false],
    ["C:\\repo\\docs\\ssh.md", false],
  ])("reading %s is sensitive: %p", (filePath, sensitive) => {
    expect(touchesSensitivePath("read", { filePath })).toBe(sensitive)
  })

  test.each([
    ["type C:\\repo\\.env", true],
    ["type .env", true],
    ['Get-Content -Path "C:\\Users\\me\\.ssh\\id_rsa"', true],
    ["Get-Content $env:USERPROFILE\\.aws\\credentials", true],
    ["gc C:\\repo\\.env.production | Select-String KEY", true],
    ["copy C:\\repo\\.env.example C:\\repo\\.env", true],
    ["type C:\\repo\\src\\a.ts\r\n", false],
    ["dir C:\\repo\\src", false],
    ["Get-ChildItem -Recurse C:\\repo\\src", false],
  ])("the command %j touches a sensitive file: %p", (command, sensitive) => {
    expect(touchesSensitivePath("bash", { command })).toBe(sensitive)
  })

  test("grep's matches in a sensitive file are dropped from \\r\\n output, the others kept", () => {
    const output = [
      "Found 2 matches",
      "C:\\repo\\.env:",
      "  Line 1: API_KEY=sk-live-123",
      "",
      "C:\\repo\\src\\a.ts:",
      "  Line 3: const key = process.env.API_KEY",
      "",
    ].join("\r\n")
    const kept = dropSensitiveLines(output)
    expect(kept).not.toContain("sk-live-123")
    expect(kept).not.toContain(".env:")
    expect(kept).toContain("C:\\repo\\src\\a.ts:\r\n  Line 3: const key = process.env.API_KEY")
  })

  test("a glob listing with \\r\\n line ends loses its sensitive files", () => {
    const kept = dropSensitiveLines("C:\\repo\\.env\r\nC:\\repo\\src\\a.ts\r\nC:\\Users\\me\\.ssh\\id_rsa\r\n")
    expect(kept).toBe("C:\\repo\\src\\a.ts\r")
  })
})

describe("provenance of Windows tool calls", () => {
  test.each([
    ["C:\\repo\\src\\a.ts"],
    ["src\\a.ts"],
    [".\\src\\a.ts"],
    ["C:/repo/src/a.ts"],
    ["c:\\REPO\\src\\A.ts"],
    [" C:\\repo\\src\\a.ts\r\n"],
  ])("%j resolves to one spelling", (path) => {
    expect(resolvePath(path, REPO)).toBe(A_TS)
  })

  test("a read is cited relative to the project, with its lines", () => {
    const read = call("read", { filePath: "C:\\repo\\src\\a.ts" }, { display: { lineStart: 1, lineEnd: 4 } })
    expect(describeSource(read, REPO)).toEqual({ ref: "src\\a.ts:1-4", path: A_TS })
  })

  test.each([
    ["C:/repo/src/a.ts", "src/a.ts"],
    ["c:\\repo\\src\\a.ts", "src\\a.ts"],
    ["C:\\repository\\a.ts", "C:\\repository\\a.ts"],
  ])("%s is cited as %s from C:\\repo", (filePath, ref) => {
    expect(describeSource(call("read", { filePath }), REPO).ref).toBe(ref)
  })

  test("edits and patches name the files they change, \\r\\n patch lines included", () => {
    expect(editedPaths("edit", { filePath: "C:\\repo\\src\\a.ts" }, REPO)).toEqual([A_TS])
    const patchText = "*** Begin Patch\r\n*** Update File: src\\a.ts\r\n@@\r\n-a\r\n+b\r\n*** End Patch\r\n"
    expect(editedPaths("apply_patch", { patchText }, REPO)).toEqual([A_TS])
  })

  test.each([
    ["del src\\a.ts", true],
    ["Remove-Item C:\\repo\\src\\a.ts", true],
    ["Set-Content -Path src\\a.ts -Value 'x'", true],
    ["Out-File -FilePath C:\\repo\\src\\a.ts", true],
    ["move src\\a.ts src\\b.ts", true],
    ["echo x > src\\a.ts", true],
    ["type src\\a.ts", false],
    ["Get-Content C:\\repo\\src\\a.ts", false],
  ])("the command %j retires what was read from src\\a.ts: %p", (command, retired) => {
    expect(shellWrittenPaths(command, [A_TS], REPO).has(A_TS)).toBe(retired)
  })

  test.each([
    [" 12 pass\r\n 0 fail\r\nRan 12 tests across 3 files. [1.20s]\r\n", 0, "passed"],
    ["===== 1 failed, 11 passed in 0.41s =====\r\n", 0, "failed"],
    ["Tests:       2 failed, 10 passed, 12 total\r\n", 1, "failed"],
    ["Ran 3 tests in 0.002s\r\n\r\nOK\r\n", 0, "passed"],
  ])("a test run's \\r\\n output %j is read for its summary", (output, exit, tests) => {
    const record = toolRecord(call("bash", { command: "npm test" }, { exit }), "ran `npm test`", REPO, output)
    expect(record.tests).toBe(tests as "passed" | "failed")
  })

  test("a glob's \\r\\n listing becomes the files it showed", () => {
    const output = "C:\\repo\\src\\a.ts\r\nC:\\repo\\src\\b.ts\r\n"
    const record = toolRecord(call("glob", { pattern: "src/*.ts" }), "listed", REPO, output)
    expect(record.listed).toEqual([A_TS, "c:/repo/src/b.ts"])
  })
})

describe("commands with backslashes", () => {
  test("a Windows path stays one word, its backslashes kept", () => {
    expect(splitCommand("type C:\\repo\\src\\a.ts")[0]?.words).toEqual(["type", "C:\\repo\\src\\a.ts"])
    expect(splitCommand("echo x > src\\a.ts")[0]?.writes).toEqual(["src\\a.ts"])
    expect(splitCommand("cd C:\\repo\r\nnpm test\r\n").map((simple) => simple.words)).toEqual([
      ["cd", "C:\\repo"],
      ["npm", "test"],
    ])
  })

  test("the escapes a POSIX shell reads still mean what they mean there", () => {
    expect(splitCommand("echo a\\ b")[0]?.words).toEqual(["echo", "a b"])
    expect(splitCommand("grep foo\\|bar x.txt")[0]?.words).toEqual(["grep", "foo|bar", "x.txt"])
    expect(splitCommand("echo \\$HOME \\* \\;")[0]?.words).toEqual(["echo", "$HOME", "*", ";"])
  })

  test("files a command names, with backslash separators", () => {
    expect(namedFiles(splitCommand("type C:\\repo\\src\\a.ts src\\lib\\Makefile"))).toEqual([
      "C:\\repo\\src\\a.ts",
      "src\\lib\\Makefile",
    ])
  })

  test("test summaries read through \\r\\n", () => {
    expect(testSummary(" 12 pass\r\n 0 fail\r\n")).toBe("passed")
    expect(testSummary(" 11 pass\r\n 1 fail\r\n")).toBe("failed")
  })
})

describe("the records, from Windows tool calls", () => {
  type Action = Parameters<typeof decideProcessClaim>[1][number]
  const bash = (command: string, exit: number, output?: string): Action =>
    toolRecord(call("bash", { command }, { exit }), `ran \`${command}\` → exit ${exit}`, REPO, output)
  const edit = (filePath: string): Action => toolRecord(call("edit", { filePath }), `edited ${filePath}`, REPO)
  const decide = (sentence: string, actions: Action[]) => {
    const claim = readProcessClaim(sentence)
    return (claim && decideProcessClaim(claim, actions, { exists: () => true })?.verdict) ?? "judge"
  }

  test.each([
    ["I updated `src/a.ts` to accept trailing commas.", "faithful"],
    ["I updated `src\\a.ts` to accept trailing commas.", "faithful"],
    ["I updated `C:\\repo\\src\\a.ts` to accept trailing commas.", "faithful"],
    ["I updated `src/b.ts` to accept trailing commas.", "unfaithful"],
  ])("after an edit of C:\\repo\\src\\a.ts: %p is %s", (sentence, verdict) => {
    expect(decide(sentence, [edit("C:\\repo\\src\\a.ts")])).toBe(verdict)
  })

  test.each([["type C:\\repo\\src\\a.ts"], ["Get-Content src\\a.ts"], ["type .\\src\\a.ts"]])(
    "a file shown by %j was read: the claim is not flagged",
    (command) => {
      expect(decide("I read `src/a.ts` first.", [bash(command, 0)])).toBe("faithful")
    },
  )

  test("'all tests pass' against a failing run with \\r\\n output, and a passing one", () => {
    expect(decide("All tests pass.", [bash("npm test", 1, " 9 pass\r\n 3 fail\r\n")])).toBe("unfaithful")
    expect(decide("All tests pass.", [bash("npm test", 0, " 12 pass\r\n 0 fail\r\n")])).toBe("faithful")
    expect(decide("All tests pass.", [bash("npm test 2>&1 | Select-Object -Last 2", 0, " 3 fail\r\n")])).toBe(
      "unfaithful",
    )
  })
})

describe("through the hooks, in a project at C:\\repo", () => {
  type Step = [tool: string, args: Record<string, unknown>, output: string, exit?: number]
  async function turn(steps: Step[], reply: string) {
    return withJudge(
      () => ({ verdict: "faithful", source: "S1" }),
      async (judge) => {
        const host = createHost({
          env: judgeEnv(judge.url),
          correct: () => undefined,
          directory: REPO,
          deps: { fileExists: (path) => path === A_TS },
        })
        const id = await host.createSession()
        const userID = await host.userMessage(id, "Fix the parser and run the tests")
        for (const [tool, args, output, exit] of steps) {
          await host.toolCall(id, userID, tool, args, { output, metadata: exit === undefined ? {} : { exit } })
        }
        await host.reply(id, userID, reply)
        await host.settle()
        return { host, requests: judge.requests }
      },
    )
  }
  const SECRET = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"
  const READ_ENV: Step = ["bash", { command: "type C:\\repo\\.env" }, `API_KEY=${SECRET}\r\n`, 0]
  const READ_A: Step = ["read", { filePath: "C:\\repo\\src\\a.ts" }, "<file>\r\n00001| export const a = 1\r\n</file>"]
  const FAILING: Step = ["bash", { command: "npm test" }, " 9 pass\r\n 3 fail\r\nRan 12 tests across 2 files.\r\n", 1]

  test("a failing run flags 'all tests pass' with its record; the .env read never reaches the judge", async () => {
    const { host, requests } = await turn([READ_ENV, READ_A, FAILING], "All tests pass.")
    expect(host.prompts).toHaveLength(1)
    expect(host.prompts[0]?.text).toContain('The source says: "ran `npm test` → exit 1".')
    expect(JSON.stringify(requests)).not.toContain(SECRET)
    expect(JSON.stringify(host.prompts)).not.toContain(SECRET)
  })

  test("a file read with `type` and cited the Windows way draws no note", async () => {
    const { host } = await turn(
      [["bash", { command: "type C:\\repo\\src\\a.ts" }, "export const a = 1\r\n", 0]],
      "I read `src\\a.ts` before changing anything.",
    )
    expect(host.prompts).toHaveLength(0)
    expect(host.plugin.counters.recordDecisions).toBe(1)
  })

  test("a claimed edit of a file the session only read is flagged, the files named as the project names them", async () => {
    const { host } = await turn(
      [READ_A, ["edit", { filePath: "C:\\repo\\src\\b.ts", oldString: "a", newString: "b" }, "ok"]],
      "I updated `src/a.ts` to export the parser.",
    )
    expect(host.prompts).toHaveLength(1)
    expect(host.prompts[0]?.text).toContain('The source says: "files changed in this session: src/b.ts".')
  })
})
