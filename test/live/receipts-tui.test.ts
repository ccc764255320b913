// The report file (RFE_REPORT) in the real opencode 1.18.33 terminal UI, in tmux: each judged reply is one line
// of the file, and a path that cannot be written is told once in a toast a person can read whole, while the
// check goes on. Skipped with RFE_SKIP_LIVE=1, and where tmux is missing.

import { afterAll, describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import type { Receipt } from "../../src/feedback/receipt.ts"
import { SURVEY_NOTES } from "../support/fixtures.ts"
import { type JudgeRule, judgeEnv } from "../support/judge.ts"
import {
  type AgentScript,
  cleanupAll,
  digest,
  type Endpoint,
  makeScratch,
  startEndpoint,
  writeProject,
} from "./harness.ts"
import { startTui, type Tui, tmuxVersion } from "./tui.ts"

const TMUX = tmuxVersion()
const SKIP = process.env.RFE_SKIP_LIVE === "1" || !TMUX
const TIMEOUT = 240_000
// A loaded machine draws the TUI slowly: each wait allows more than the 30 s default.
const WAIT_MS = 90_000

const WRONG = "Seven bridges span the Zeppo river in Freedonia."
const FIXED = "Three bridges span the Zeppo river in Freedonia."
const QUESTION = "How many bridges cross the Zeppo?"

const agent: AgentScript = (c) => {
  if (c.isNote) return { text: FIXED }
  if (c.step === 0) return { tools: [{ name: "read", args: { filePath: "facts.txt" } }] }
  return { text: WRONG }
}

const judge: JudgeRule = (call) =>
  /seven/i.test(call.claim)
    ? {
        verdict: "unfaithful",
        source: call.sources.find((s) => s.text.includes("bridges"))?.id ?? "S1",
        quote: "Freedonia has 3 bridges over the river Zeppo.",
        reason: "the file says 3 bridges",
      }
    : { verdict: "faithful", source: call.sources[0]?.id ?? "S1", reason: "stated in the file" }

/** The screen as text a person reads: frame characters gone, wrapped lines joined. */
const readable = (screen: string) =>
  screen
    .replace(/[┃│╹▀▣■⬝]/g, " ")
    .replace(/\s+/g, " ")
    .trim()

afterAll(async () => {
  await cleanupAll()
})

/** One TUI with its own endpoint and project; `report` is where RFE_REPORT points, inside the scratch folder. */
async function withTui(report: (root: string) => string, run: (tui: Tui, ep: Endpoint, path: string) => Promise<void>) {
  const ep = startEndpoint({ agent, judge })
  const scratch = makeScratch("tui-")
  writeProject(scratch, { endpoint: ep, files: { "facts.txt": SURVEY_NOTES }, plugin: { mode: "copy" } })
  const path = report(scratch.root)
  const tui = await startTui({ scratch, env: { ...judgeEnv(ep.judgeBaseURL), RFE_REPORT: path }, cols: 100, rows: 40 })
  try {
    await tui.waitReady(WAIT_MS)
    await run(tui, ep, path)
  } catch (error) {
    if (error instanceof Error) {
      error.message += `\n--- screen ---\n${tui.capture()}\n--- requests ---\n${digest(ep.requests).join("\n")}`
    }
    throw error
  } finally {
    await tui.stop()
    await ep.stop()
    if (process.env.RFE_LIVE_KEEP !== "1") rmSync(scratch.root, { recursive: true, force: true })
  }
}

describe.skipIf(SKIP)("live: the report file in the opencode TUI", () => {
  test(
    "a wrong reply and its correction: two lines in the report, the first with the note the agent got",
    () =>
      withTui(
        (root) => join(root, "ragfaith.jsonl"),
        async (tui, ep, path) => {
          await tui.submit(QUESTION)
          await tui.waitForText(FIXED, WAIT_MS)
          await tui.waitIdle(ep.inflight, 2500)
          const lines = existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : []
          const [flagged, corrected] = lines.map((line) => JSON.parse(line) as Receipt)
          expect(lines).toHaveLength(2)
          expect(flagged?.mode).toBe("serve")
          expect(flagged?.outcome).toBe("noted")
          expect(flagged?.statements.map((s) => [s.text, s.verdict, s.source, s.quote])).toEqual([
            [WRONG, "unfaithful", "facts.txt:1-4", "Freedonia has 3 bridges over the river Zeppo."],
          ])
          // The notice in the line is the one on screen.
          const screen = readable(tui.capture())
          expect(screen).toContain(readable(flagged?.note?.notice ?? "-"))
          expect(corrected?.statements.map((s) => s.verdict)).toEqual(["faithful"])
          expect(corrected?.note).toBeNull()
        },
      ),
    TIMEOUT,
  )

  test(
    "a report path that is a folder: one toast says so, read whole, and the wrong reply is still corrected",
    () =>
      withTui(
        (root) => {
          const folder = join(root, "reports")
          mkdirSync(folder)
          return folder
        },
        async (tui, ep) => {
          await tui.submit(QUESTION)
          await tui.waitForText(FIXED, WAIT_MS)
          // Toasts wait while the correction runs and for 4 s after it; this one then stays up 6 s.
          const toast = readable(
            await tui.waitForScreen(
              (screen) => readable(screen).includes("Cannot write RFE_REPORT; judging goes on."),
              "the toast about RFE_REPORT",
              WAIT_MS,
            ),
          )
          expect(toast).toContain("Cannot write RFE_REPORT; judging goes on. The opencode log says why.")
          // The notice names the wrong part; the statement itself may be shortened to make room for it.
          expect(toast).toContain('Automatic check: "Seven bridges span the Zeppo river')
          expect(toast).toContain('which says "3 bridges"')
          await tui.waitIdle(ep.inflight, 2000)
          expect(ep.byKind("judge").length).toBeGreaterThanOrEqual(2)
        },
      ),
    TIMEOUT,
  )
})
