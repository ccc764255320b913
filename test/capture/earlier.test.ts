/**
 * A long session: the records keep the latest calls for the judge to read, and what older calls did to files
 * stays in a bounded ledger, so "I updated X" is still decided after the call on X left the window.
 */

import { describe, expect, test } from "bun:test"
import { LIMITS } from "../../src/base/bounds.ts"
import { foldEarlier } from "../../src/capture/earlier.ts"
import { toolRecord } from "../../src/capture/provenance.ts"
import { readProcessClaim } from "../../src/judge/process-claim.ts"
import { decideProcessClaim } from "../../src/judge/records.ts"
import { newSession } from "../../src/state/session.ts"
import type { EarlierRecords, ToolRecord } from "../../src/state/shapes.ts"
import { failedEditTurn } from "../support/turns.ts"

const DIR = "/project"

const call = (
  tool: string,
  args: Record<string, unknown>,
  { exit, failed = false } = {} as { exit?: number; failed?: boolean },
) =>
  toolRecord(
    { tool, args, metadata: exit === undefined ? {} : { exit }, title: "" },
    `${tool} ${String(args.filePath ?? args.command ?? "")}${failed ? " → failed" : ""}`,
    DIR,
    "",
    failed,
  )

const READS = Array.from({ length: LIMITS.toolRecords }, (_, i) =>
  call("read", { filePath: `${DIR}/docs/page${i}.md` }),
)

/** The window after `first` and the reads: the first calls folded into a fresh ledger, as capture does. */
function longSession(first: ToolRecord[]): { window: ToolRecord[]; earlier: EarlierRecords } {
  const { earlier } = newSession("s")
  for (const record of first) foldEarlier(earlier, record)
  return { window: READS, earlier }
}

const decide = (sentence: string, first: ToolRecord[]) => {
  const { window, earlier } = longSession(first)
  const claim = readProcessClaim(sentence)
  const decision = claim && decideProcessClaim(claim, window, { truncated: true, earlier, exists: () => true })
  return decision ? [decision.verdict, decision.quote] : ["judge", ""]
}

const EDIT_APP = call("edit", { filePath: `${DIR}/src/app.ts`, oldString: "a", newString: "b" })

describe("a long session's earlier calls", () => {
  test("a change that left the window still confirms the claim, quoting its call", () => {
    expect(decide("I updated `src/app.ts` to use port 8080.", [EDIT_APP])).toEqual([
      "faithful",
      `edit ${DIR}/src/app.ts`,
    ])
  })

  test("a failed change that left the window is still the reason the claim is wrong", () => {
    const failed = call("edit", { filePath: `${DIR}/src/app.ts`, oldString: "a", newString: "b" }, { failed: true })
    expect(decide("I updated `src/app.ts` to use port 8080.", [failed])).toEqual([
      "unfaithful",
      `edit ${DIR}/src/app.ts → failed`,
    ])
  })

  test("a file a command wrote before the window counts as changed", () => {
    const heredoc = call("bash", { command: "cat > src/app.ts <<'EOF'\nexport {}\nEOF" }, { exit: 0 })
    expect(decide("I created `src/app.ts`.", [heredoc])[0]).toBe("faithful")
  })

  test("a file only read before the window was never changed; the quote names it among the files read", () => {
    const read = call("read", { filePath: `${DIR}/src/app.ts` })
    expect(decide("I updated `src/app.ts`.", [read])[0]).toBe("unfaithful")
    expect(decide("I reviewed `src/app.ts`.", [read])).toEqual(["faithful", `read ${DIR}/src/app.ts`])
  })

  test.each([
    ["a subagent worked", [call("task", { prompt: "fix it" }), call("read", { filePath: `${DIR}/src/app.ts` })]],
    [
      "a script may have changed files it does not name",
      [call("bash", { command: "python fix.py" }, { exit: 0 }), call("read", { filePath: `${DIR}/src/app.ts` })],
    ],
  ])("when %s, a file the records never changed is left to the judge", (_why, first) => {
    expect(decide("I updated `src/app.ts`.", first)[0]).toBe("judge")
  })

  test("past its bound the ledger keeps no new file, and then tells nothing about files never touched", () => {
    const { earlier } = newSession("s")
    for (let i = 0; i < LIMITS.earlierFiles + 10; i++)
      foldEarlier(earlier, call("read", { filePath: `${DIR}/src/f${i}.ts` }))
    expect(earlier.files.size).toBe(LIMITS.earlierFiles)
    expect(earlier.overflow).toBe(true)
    const claim = readProcessClaim("I updated `src/f3.ts`.")
    expect(claim && decideProcessClaim(claim, READS, { truncated: true, earlier, exists: () => true })).toBeUndefined()
  })

  test("without the ledger a truncated window decides nothing, as before", () => {
    const claim = readProcessClaim("I updated `src/app.ts`.")
    expect(claim && decideProcessClaim(claim, READS, { truncated: true, exists: () => true })).toBeUndefined()
  })
})

describe("through the hooks: a session of more calls than the window", () => {
  test("a failed edit 70 calls back still draws the note, quoting the failure; the records stay bounded", async () => {
    const { host, session } = await failedEditTurn(DIR, 70)
    expect(host.plugin.sessions.get(session)?.records).toHaveLength(LIMITS.toolRecords)
    expect(host.prompts).toHaveLength(1)
    expect(host.prompts[0]?.text).toContain("oldString not found")
  })
})
