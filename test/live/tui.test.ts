// What a person sees: the real opencode 1.18.33 terminal UI in tmux, the plugin copied into the project, the
// scripted agent and judge on 127.0.0.1. Every assertion reads the captured screen; the endpoint's request log
// only adds what the screen cannot show (that the model got no request).
// Skipped with RFE_SKIP_LIVE=1, and, with a message, where tmux is missing. RFE_TUI_CAPTURES=<dir> keeps the
// screens; RFE_TUI_REPORT=<file> writes a record per scenario for report.ts.

import { afterAll, describe, expect, test } from "bun:test"
import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { SURVEY_NOTES } from "../support/fixtures.ts"
import { type JudgeRule, judgeEnv } from "../support/judge.ts"
import {
  type AgentScript,
  cleanupAll,
  digest,
  type Endpoint,
  makeScratch,
  ROUTE_JUDGE_MODEL,
  type ScenarioRecord,
  startEndpoint,
  writeProject,
} from "./harness.ts"
import { startTui, type Tui, tmuxVersion } from "./tui.ts"

const TMUX = tmuxVersion()
const SKIP = process.env.RFE_SKIP_LIVE === "1" || !TMUX
if (!TMUX && process.env.RFE_SKIP_LIVE !== "1") {
  console.warn("TUI tests skipped: tmux is not installed here (.ci/run installs it with apt-get where it can)")
}
const TIMEOUT = 150_000

const CAPITAL = "Marxburg serves as the capital city of Freedonia."
const WRONG = "Seven bridges span the Zeppo river in Freedonia."
const FIXED = "Three bridges span the Zeppo river in Freedonia."

// Reads facts.txt at the start of every turn, then answers what was asked; a note gets the corrected sentence.
const agent: AgentScript = (c) => {
  if (c.isNote) return { text: FIXED }
  if (c.step === 0) return { tools: [{ name: "read", args: { filePath: "facts.txt" } }] }
  return { text: /capital/i.test(c.lastUserText) ? CAPITAL : WRONG }
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

const records: ScenarioRecord[] = []

interface TuiRun {
  tui: Tui
  ep: Endpoint
  notes: string[]
  screens: Array<{ label: string; text: string }>
  /** Captures the pane under `label`, for the assertions and for docs/verification.md. */
  shot(label: string): string
}

/** How a scenario's judge is reached: straight (the scripted judge, with a key) or through opencode's provider. */
type Route = "direct" | "opencode"

/** One scenario: its own endpoint, project and TUI, recorded whether it passes or fails. */
async function withTui(name: string, rule: JudgeRule, run: (t: TuiRun) => Promise<void>, route: Route = "direct") {
  const ep = startEndpoint({ agent, judge: rule })
  const scratch = makeScratch("tui-")
  writeProject(scratch, {
    endpoint: ep,
    files: { "facts.txt": SURVEY_NOTES },
    plugin: { mode: "copy" },
    // no judge key: the small model judges through opencode
    ...(route === "opencode" ? { extraConfig: { small_model: `mock/${ROUTE_JUDGE_MODEL}` } } : {}),
  })
  const captureDir = process.env.RFE_TUI_CAPTURES
    ? join(process.env.RFE_TUI_CAPTURES, name.split(" ")[0] ?? name)
    : undefined
  const env = route === "direct" ? judgeEnv(ep.judgeBaseURL) : {}
  const tui = await startTui({ scratch, env, captureDir })
  const notes: string[] = []
  const screens: TuiRun["screens"] = []
  const t0 = Date.now()
  let failure: string | undefined
  try {
    notes.push(`TUI ready after ${((await tui.waitReady()) / 1000).toFixed(1)} s (${TMUX})`)
    await run({
      tui,
      ep,
      notes,
      screens,
      shot(label) {
        const text = tui.capture(label)
        screens.push({ label, text })
        return text
      },
    })
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error)
    if (error instanceof Error)
      error.message += `\n--- screen ---\n${tui.capture()}\n--- requests ---\n${digest(ep.requests).join("\n")}`
    throw error
  } finally {
    await tui.stop()
    await ep.stop()
    if (process.env.RFE_LIVE_KEEP !== "1") rmSync(scratch.root, { recursive: true, force: true })
    records.push({
      name,
      ok: failure === undefined,
      seconds: (Date.now() - t0) / 1000,
      startupSeconds: 0,
      digest: digest(ep.requests),
      notes,
      screens,
      ...(failure ? { error: failure.slice(0, 4000) } : {}),
    })
  }
}

afterAll(async () => {
  await cleanupAll()
  if (process.env.RFE_TUI_REPORT) writeFileSync(process.env.RFE_TUI_REPORT, `${JSON.stringify(records, null, 2)}\n`)
})

describe.skipIf(SKIP)("live: what a person sees in the opencode TUI", () => {
  test(
    "T1. a faithful reply shows nothing; a wrong one shows the notice between it and the correction; /ragfaith answers with no model turn",
    () =>
      withTui("T1 correction and report", judge, async ({ tui, ep, notes, shot }) => {
        const agentRequests = () => ep.byKind("agent").length

        // (d) a faithful reply: judged, and nothing on screen says so
        await tui.submit("Read facts.txt and tell me the capital of Freedonia")
        await tui.waitForText(CAPITAL)
        await tui.waitIdle(ep.inflight, 2500)
        const faithful = shot("faithful-reply")
        expect(ep.byKind("judge").length).toBeGreaterThanOrEqual(1)
        expect(faithful).not.toContain("ragfaith")

        // (a) the wrong reply, the notice naming the file, then the correction, in that order
        await tui.submit("How many bridges cross the Zeppo?")
        await tui.waitForText(FIXED)
        await tui.waitIdle(ep.inflight, 2500)
        const corrected = readable(shot("correction"))
        const wrongAt = corrected.indexOf(WRONG)
        const noticeAt = corrected.indexOf("ragfaith: 1 of 1 statement conflicts with facts.txt")
        const fixedAt = corrected.indexOf(FIXED)
        expect(wrongAt).toBeGreaterThanOrEqual(0)
        expect(noticeAt).toBeGreaterThan(wrongAt)
        expect(fixedAt).toBeGreaterThan(noticeAt)
        expect(corrected).toContain("Asking the agent to correct it.")

        // (b) /ragfaith: the flagged statement with its source, and the model was not asked
        const before = agentRequests()
        await tui.submit("/ragfaith", 2)
        await tui.waitForText("drew the last")
        await tui.waitIdle(ep.inflight, 1500)
        const report = readable(shot("ragfaith-report"))
        expect(report).toContain(`✗ "${WRONG}" unfaithful: facts.txt:1-4`)
        expect(report).toContain("Freedonia has 3 bridges over the river Zeppo")
        expect(report).toContain(`✓ "${FIXED}"`)
        expect(agentRequests()).toBe(before)
        notes.push(`agent requests before /ragfaith: ${before}, after: ${agentRequests()}`)
      }),
    TIMEOUT,
  )

  test(
    "T2. a judge that refuses its key: the toast says so, names the variable, and says replies go unchecked",
    () =>
      withTui(
        "T2 refused key",
        () => ({ status: 401, body: JSON.stringify({ error: { message: "invalid api key" } }) }),
        async ({ tui, ep, shot }) => {
          await tui.submit("How many bridges cross the Zeppo?")
          // a toast stays 5 s: read it while it is up
          const screen = await tui.waitForText("The judge refused the key")
          shot("refused-key-toast")
          expect(screen).toContain("RFE_JUDGE_API_KEY")
          expect(screen).toContain("Replies go unchecked.")
          // titled once: the text does not repeat the name
          expect(screen.match(/ragfaith/g)?.length).toBe(1)
          expect(ep.byKind("judge").every((r) => r.status === 401)).toBe(true)
          await tui.waitIdle(ep.inflight, 1500)
        },
      ),
    TIMEOUT,
  )

  test(
    "T3. no judge key, and the user's provider refuses the judge call: the plugin's toast is what stays on screen",
    () =>
      withTui(
        "T3 route refused",
        () => ({ status: 401, body: JSON.stringify({ error: { message: "Invalid API key (scripted 401)" } }) }),
        async ({ tui, ep, notes, shot }) => {
          await tui.submit("How many bridges cross the Zeppo?")
          const seen: string[] = []
          const screen = await tui.waitForText("Your provider refused the judge", 30000, seen)
          shot("route-refused-toast")
          expect(screen).toContain("mock/judge")
          // opencode turns the judge session's error into a red toast of its own; the plugin's toast replaces it
          expect(screen).not.toContain("Invalid API key")
          const raw = seen.filter((s) => s.includes("Invalid API key")).length
          notes.push(
            `screens polled every 20 ms until the plugin's toast: ${seen.length}; with opencode's raw error: ${raw}`,
          )
          expect(ep.byKind("judge").every((r) => r.route === true)).toBe(true)
          await tui.waitIdle(ep.inflight, 1500)
          expect(tui.capture()).not.toContain("Invalid API key")
        },
        "opencode",
      ),
    TIMEOUT,
  )
})
