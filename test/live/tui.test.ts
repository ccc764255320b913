// What a person sees: the real opencode 1.18.33 terminal UI in tmux, the plugin copied into the project, the
// scripted agent and judge on 127.0.0.1. Every assertion reads the captured screen; the endpoint's request log
// only adds what the screen cannot show (that the model got no request).
// Skipped with RFE_SKIP_LIVE=1, and, with a message, where tmux is missing. RFE_TUI_CAPTURES=<dir> keeps the
// screens; RFE_TUI_REPORT=<file> writes a record per scenario for report.ts.

import { afterAll, describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SURVEY_NOTES } from "../support/fixtures.ts"
import { type JudgeRule, judgeEnv } from "../support/judge.ts"
import {
  AGENT_MODEL,
  type AgentScript,
  agentContext,
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

// A long reply: 21 statements, of which the judge contradicts every fifth and finds no source for the next,
// and an offer that states nothing to check.
const LONG_OFFER = "Let me know if you want the full survey."
const LONG_REPLY = `${Array.from({ length: 21 }, (_, i) => `Bridge number ${i} crosses the northern river.`).join(" ")} ${LONG_OFFER}`
const longAgent: AgentScript = (c) => {
  if (c.isNote) return { text: FIXED }
  if (c.step === 0) return { tools: [{ name: "read", args: { filePath: "facts.txt" } }] }
  return { text: LONG_REPLY }
}
const longJudge: JudgeRule = (call) => {
  const n = Number(/number (\d+)/.exec(call.claim)?.[1] ?? -1) % 5
  const source = call.sources.find((s) => s.text.includes("bridges"))?.id ?? "S1"
  if (n === 0) {
    return {
      verdict: "unfaithful",
      source,
      quote: "Freedonia has 3 bridges over the river Zeppo.",
      reason: "3 bridges",
    }
  }
  if (n === 1) return { verdict: "unverifiable", reason: "the notes name no northern river" }
  return { verdict: "faithful", source, reason: "stated in the file" }
}

/** The screen as text a person reads: frame characters gone, wrapped lines joined. */
const readable = (screen: string) =>
  screen
    .replace(/[┃│╹▀▣■⬝]/g, " ")
    .replace(/\s+/g, " ")
    .trim()

/**
 * `/ragfaith` typed as a person does (Enter twice: the first completes the name): the screen once `until`
 * shows and nothing is in flight, kept as `label`, in the form the assertions read.
 */
async function openReport(
  { tui, ep, shot }: { tui: Tui; ep: Endpoint; shot: (label: string) => string },
  label: string,
  until = "This session:",
  timeoutMs?: number,
): Promise<string> {
  await tui.submit("/ragfaith", 2)
  await tui.waitForText(until, timeoutMs)
  await tui.waitIdle(ep.inflight, 1500)
  return readable(shot(label))
}

/** The two terminal sizes the issue names: a small laptop pane and a wide one. */
const SIZES: Array<[string, [number, number]]> = [
  ["a", [80, 24]],
  ["b", [120, 40]],
]

const QUESTION = "How many bridges cross the Zeppo?"

/** The notice the wrong bridge count draws, as the plugin breaks its lines: the source's "3 bridges" named. */
const NOTICE_LINES = [
  'Automatic check: "Seven bridges span the Zeppo river in…" conflicts with',
  'facts.txt:1-4, which says "3 bridges". Asking the agent to correct it.',
]

/** A screen's rows with the frame of the user-message boxes taken off: what the row says. */
const rowsOf = (screen: string) => screen.split("\n").map((row) => row.replace(/^\s*[┃│]\s{0,2}/, "").trimEnd())

/**
 * What the prompt box holds: the rows above its agent and model line, up to the blank row at its top. The box
 * is a blank row, the input, a blank row, then `Build · Scripted Mock (scripted)`.
 */
const promptInput = (screen: string) => {
  const rows = screen.split("\n")
  const footer = rows.findLastIndex((row) => /┃\s+Build · Scripted/.test(row))
  const input: string[] = []
  for (let i = footer - 2; i > 0; i--) {
    const row = rows[i] ?? ""
    const text = row.replace(/^\s*┃/, "").trim()
    if (!row.trimStart().startsWith("┃") || text === "") break
    input.unshift(text)
  }
  return input.join(" ")
}

/**
 * The rows above the prompt box (its blank row, one input row, its blank row, its footer), frames taken off.
 * Blank rows at the bottom are dropped: there the prompt box's top row may cover the transcript's last one.
 */
const transcriptRows = (screen: string) => {
  const rows = screen.split("\n")
  const footer = rows.findLastIndex((row) => /┃\s+Build · Scripted/.test(row))
  const above = rowsOf(rows.slice(0, Math.max(0, footer - 3)).join("\n"))
  while (above.length && above.at(-1)?.trim() === "") above.pop()
  return above
}

/** `above` and `below` overlap where the end of one is the start of the other: joined there, once. */
const joinRows = (above: string[], below: string[]) => {
  for (let k = Math.min(above.length, below.length); k > 0; k--) {
    if (above.slice(-k).every((row, i) => row === below[i])) return [...above, ...below.slice(k)]
  }
  return [...above, ...below]
}

/** Scrolls the transcript up a page at a time until `top` shows, and returns all it passed, top first. */
async function readBack(tui: Tui, top: string, pages = 30) {
  let rows = transcriptRows(tui.capture())
  for (let i = 0; i < pages && !rows.some((row) => row.includes(top)); i++) {
    tui.key("PPage")
    await Bun.sleep(400)
    rows = joinRows(transcriptRows(tui.capture()), rows)
  }
  return rows
}

/** A toast box on screen: the plugin's title row, framed. */
const TOAST_RE = /┃\s+ragfaith\s+┃/

/** Any toast box on screen, the plugin's or opencode's own: a framed row at the right edge, clear of the transcript. */
const ANY_TOAST_RE = /^.{4,}┃.*┃\s*$/m

/** A generous deadline for each wait on the screen: the machine is shared, and a slowed TUI draws slowly. */
const WAIT = 90_000

/** Whether a row of the screen holds `text` whole: nothing drawn over any part of it. */
const rowHolds = (screen: string, text: string) => screen.split("\n").some((row) => row.includes(text))

/**
 * The screens, once `reply` has been drawn whole, on which its row shows but not whole: something drawn over
 * it. A reply that scrolls off the top is no longer on the screen at all, which is no covering.
 */
function replyCovered(seen: readonly string[], reply: string) {
  const first = seen.findIndex((screen) => rowHolds(screen, reply))
  const start = reply.slice(0, 20)
  const shows = (screen: string) => screen.split("\n").some((row) => row.trimStart().startsWith(start))
  return { first, covered: seen.slice(Math.max(first, 0)).filter((s) => shows(s) && !rowHolds(s, reply)) }
}

/**
 * Polls the pane until `ok(screen)` has held, on a screen that did not change, for `quietMs`: what the TUI
 * shows once everything that was going to happen has happened, however slowly it is drawn.
 */
async function waitSettled(tui: Tui, ok: (screen: string) => boolean, what: string, quietMs = 4000) {
  let last = ""
  let since = Date.now()
  return tui.waitForScreen(
    (screen) => {
      if (screen !== last) {
        last = screen
        since = Date.now()
      }
      return ok(screen) && Date.now() - since >= quietMs
    },
    `${what}, settled for ${quietMs} ms`,
    WAIT,
  )
}

/**
 * The project as a git repository with its files committed, the way a real one is: opencode keeps its
 * snapshots of file edits (what undo restores) only for git projects. opencode's own folder stays out of it.
 */
function commitProject(dir: string) {
  writeFileSync(join(dir, ".gitignore"), ".opencode/\n")
  const git = (...args: string[]) => {
    const res = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.test", ...args], {
      cwd: dir,
      encoding: "utf8",
    })
    if (res.status !== 0) throw new Error(`git ${args.join(" ")}: ${res.stderr}`)
  }
  git("init", "-q")
  git("add", "-A")
  git("commit", "-qm", "start")
}

const records: ScenarioRecord[] = []

interface TuiRun {
  tui: Tui
  scratch: ReturnType<typeof makeScratch>
  ep: Endpoint
  notes: string[]
  screens: Array<{ label: string; text: string }>
  /** Captures the pane under `label`, for the assertions and for docs/verification.md. */
  shot(label: string): string
}

/** How a scenario's judge is reached: straight (the scripted judge, with a key) or through opencode's provider. */
type Route = "direct" | "opencode"

interface TuiScenario {
  route?: Route
  /** More of the plugin's environment. */
  env?: Record<string, string>
  /** Terminal columns and rows; 100x40 unless given. */
  size?: [number, number]
  agent?: AgentScript
  /** The project's files; facts.txt unless given. */
  files?: Record<string, string>
  /** More of the project's opencode.json, which may name the endpoint. */
  extraConfig?: (ep: Endpoint) => Record<string, unknown>
  /** The project is a git repository with its files committed, as opencode's undo of file edits needs. */
  git?: boolean
}

/** One scenario: its own endpoint, project and TUI, recorded whether it passes or fails. */
async function withTui(name: string, rule: JudgeRule, run: (t: TuiRun) => Promise<void>, opts: TuiScenario = {}) {
  const route = opts.route ?? "direct"
  const ep = startEndpoint({ agent: opts.agent ?? agent, judge: rule })
  const scratch = makeScratch("tui-")
  writeProject(scratch, {
    endpoint: ep,
    files: opts.files ?? { "facts.txt": SURVEY_NOTES },
    plugin: { mode: "copy" },
    extraConfig: {
      // no judge key: the small model judges through opencode
      ...(route === "opencode" ? { small_model: `mock/${ROUTE_JUDGE_MODEL}` } : {}),
      ...opts.extraConfig?.(ep),
    },
  })
  if (opts.git) commitProject(scratch.project)
  const captureDir = process.env.RFE_TUI_CAPTURES
    ? join(process.env.RFE_TUI_CAPTURES, name.split(" ")[0] ?? name)
    : undefined
  const env = { ...(route === "direct" ? judgeEnv(ep.judgeBaseURL) : {}), ...opts.env }
  const [cols, rows] = opts.size ?? [100, 40]
  const tui = await startTui({ scratch, env, captureDir, cols, rows })
  const notes: string[] = []
  const screens: TuiRun["screens"] = []
  const t0 = Date.now()
  let failure: string | undefined
  try {
    notes.push(`TUI ${cols}x${rows} ready after ${((await tui.waitReady()) / 1000).toFixed(1)} s (${TMUX})`)
    await run({
      tui,
      scratch,
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
        expect(faithful).not.toContain("Automatic check")

        // (a) the wrong reply, the notice naming the statement and the file, then the correction, in that order
        await tui.submit("How many bridges cross the Zeppo?")
        await tui.waitForText(FIXED)
        await tui.waitIdle(ep.inflight, 2500)
        const corrected = readable(shot("correction"))
        const wrongAt = corrected.indexOf(WRONG)
        const noticeAt = corrected.indexOf(NOTICE_LINES.join(" "))
        const fixedAt = corrected.indexOf(FIXED, wrongAt + WRONG.length)
        expect(wrongAt).toBeGreaterThanOrEqual(0)
        expect(noticeAt).toBeGreaterThan(wrongAt)
        expect(fixedAt).toBeGreaterThan(noticeAt)
        expect(corrected).toContain("Asking the agent to correct it.")

        // (b) /ragfaith: the flagged reply first, with its source; the correction after it; no model request
        const before = agentRequests()
        const report = await openReport({ tui, ep, shot }, "ragfaith-report", "Judge: judge-main")
        expect(report).toContain(`✗ "${WRONG}" unfaithful: facts.txt:1-4`)
        expect(report).toContain("Freedonia has 3 bridges over the river Zeppo")
        expect(report.indexOf("✗")).toBeLessThan(report.indexOf("the reply after it"))
        expect(report).toContain("Its 1 statement holds up.")
        expect(report).toContain("1 note sent")
        // what judging cost, for the reply shown last and for the session
        expect(report).toMatch(
          /Cost: this reply \d+ judge requests?, [\d,]+ tokens in and \d+ out; this session \d+ judge requests/,
        )
        expect(agentRequests()).toBe(before)
        notes.push(`agent requests before /ragfaith: ${before}, after: ${agentRequests()}`)
      }),
    TIMEOUT,
  )

  /**
   * Every screen from the question on, until `done` shows: the reply, once drawn whole, is whole on each that
   * shows it (no toast opens over it, nor anything else), and no toast of the plugin's shows at all.
   */
  async function watchReply(tui: Tui, done: string, reply = WRONG) {
    const seen: string[] = []
    await tui.submit(QUESTION)
    await tui.waitForText(done, WAIT, seen)
    const { first, covered } = replyCovered(seen, reply)
    expect(first).toBeGreaterThanOrEqual(0)
    expect(covered).toEqual([])
    expect(seen.filter((screen) => TOAST_RE.test(screen))).toEqual([])
    return { seen, first }
  }

  /** What the route says under the first reply it judges: which of the user's models judges. */
  const ROUTE_MODEL_NOTICE = `Automatic check: the judge is mock/${ROUTE_JUDGE_MODEL}, one of your models; RFE_JUDGE_MAIN_MODEL picks another.`

  /** The notice a refused key draws under the reply, as the plugin breaks its lines. */
  const REFUSED_NOTICE = [
    "Automatic check: the judge refused the key (HTTP 401): check",
    "RFE_JUDGE_API_KEY. Replies go unchecked.",
  ]

  for (const [label, size] of SIZES) {
    test(
      `T2${label}. a judge that refuses its key (${size.join("x")}): no toast over the reply; the notice under it names the variable, and /ragfaith says it again`,
      () =>
        withTui(
          `T2${label} refused key ${size.join("x")}`,
          () => ({ status: 401, body: JSON.stringify({ error: { message: "invalid api key" } }) }),
          async ({ tui, ep, notes, shot }) => {
            const { seen, first } = await watchReply(tui, REFUSED_NOTICE[1] as string)
            await tui.waitIdle(ep.inflight, 2000)
            const screen = shot("refused-key-notice")
            expect(ep.byKind("judge").every((r) => r.status === 401)).toBe(true)
            // under the reply, each of its two rows whole; the reply above it whole, its number readable
            const rows = rowsOf(screen)
            for (const line of REFUSED_NOTICE) expect(rows).toContain(line)
            expect(rowHolds(screen, WRONG)).toBe(true)
            expect(readable(screen).indexOf(WRONG)).toBeLessThan(readable(screen).indexOf(REFUSED_NOTICE[0] as string))
            expect(ANY_TOAST_RE.test(screen)).toBe(false)
            notes.push(
              `screens polled every 20 ms until the notice: ${seen.length}; the reply whole from screen ${first + 1} ` +
                "on, on every one; a toast on none",
            )
            // the report does not call the reply judged: it says it was not, why, and what to check
            const report = await openReport({ tui, ep, shot }, "refused-key-report", "This session:", WAIT)
            expect(report).toContain("Automatic check: the last reply was not judged")
            expect(report).toContain("the judge did not answer for")
            expect(report).toContain("the judge refused the key (HTTP 401): check RFE_JUDGE_API_KEY.")
            expect(report).not.toMatch(/needed a note|hold up|judged at|tokens in/)
          },
          { size },
        ),
      TIMEOUT,
    )
  }

  test(
    "T9. notes off (RFE_NUDGE_DEPTH=0), a wrong reply: the notice under it names the wrong part and says the agent is not asked; no toast, no turn",
    () =>
      withTui(
        "T9 notes off",
        judge,
        async ({ tui, ep, notes, shot }) => {
          const { seen } = await watchReply(tui, "Notes are off")
          await tui.waitIdle(ep.inflight, 2500)
          const screen = shot("notes-off-notice")
          const flat = readable(screen)
          expect(rowHolds(screen, WRONG)).toBe(true)
          expect(flat.indexOf(WRONG)).toBeLessThan(flat.indexOf("Automatic check:"))
          expect(flat).toMatch(/Automatic check: "[^"]*Seven[^"]*" conflicts with facts\.txt/)
          expect(flat).toContain("Notes are off, so the agent is not asked.")
          expect(flat).not.toContain(FIXED)
          expect(ANY_TOAST_RE.test(screen)).toBe(false)
          // no turn for a note: the agent never wrote the corrected sentence
          expect(ep.byKind("agent").filter((r) => JSON.stringify(r.answer ?? "").includes(FIXED))).toEqual([])
          notes.push(`screens polled until the notice: ${seen.length}; the reply whole on each, a toast on none`)
        },
        { size: [80, 24], env: { RFE_NUDGE_DEPTH: "0" } },
      ),
    TIMEOUT,
  )

  // The user's only opencode model is the agent's: the route has no model to judge with, and no key is set.
  const loneAgent: AgentScript = (c) =>
    /You are a title generator/.test(c.system) ? { text: "Bridges of Freedonia" } : agent(c)
  const NO_JUDGE_NOTICE = [
    "Automatic check: nothing is judged: the agent's model is your only one.",
    'Add "small_model" to opencode.json, or a judge key; see /ragfaith.',
  ]

  for (const [label, size] of SIZES) {
    test(
      `T7${label}. no judge at all (${size.join("x")}): no toast over the reply; the notice under it says what to add, /ragfaith names small_model and the judge variables`,
      () =>
        withTui(
          `T7${label} no judge ${size.join("x")}`,
          () => ({ status: 500, body: "the judge must not be asked" }),
          async ({ tui, ep, notes, shot }) => {
            const { seen } = await watchReply(tui, NO_JUDGE_NOTICE[1] as string)
            await tui.waitIdle(ep.inflight, 2000)
            const screen = shot("no-judge-notice")
            expect(ep.byKind("judge")).toEqual([])
            const rows = rowsOf(screen)
            for (const line of NO_JUDGE_NOTICE) expect(rows).toContain(line)
            expect(readable(screen).indexOf(WRONG)).toBeLessThan(readable(screen).indexOf(NO_JUDGE_NOTICE[0] as string))
            expect(ANY_TOAST_RE.test(screen)).toBe(false)
            notes.push(`screens polled until the notice: ${seen.length}; the reply whole on each, a toast on none`)
            const report = await openReport({ tui, ep, shot }, "no-judge-report", "This session:", WAIT)
            expect(report).toContain("Automatic check: the last reply was not judged")
            expect(report).toContain("as there was no judge to ask (see Judge below)")
            // which setting to add: a small model in opencode's config, or the plugin's own judge variables
            expect(report).toContain("Judge: none.")
            expect(report).toContain('"small_model": "provider/model"')
            expect(report).toContain("RFE_JUDGE_API_KEY with RFE_JUDGE_BASE_URL and RFE_JUDGE_MAIN_MODEL")
          },
          {
            size,
            route: "opencode",
            agent: loneAgent,
            extraConfig: (ep) => ({
              small_model: `mock/${AGENT_MODEL}`,
              provider: {
                mock: {
                  npm: "@ai-sdk/openai-compatible",
                  name: "Mock (scripted)",
                  options: { baseURL: ep.agentBaseURL, apiKey: "mock-key" },
                  models: {
                    [AGENT_MODEL]: { name: "Scripted", tool_call: true, limit: { context: 200000, output: 4096 } },
                  },
                },
              },
            }),
          },
        ),
      TIMEOUT,
    )
  }

  test(
    "T3. no judge key, and the user's provider refuses the judge call: opencode's red toast is taken off at once, the notice under the reply says why",
    () =>
      withTui(
        "T3 route refused",
        () => ({ status: 401, body: JSON.stringify({ error: { message: "Invalid API key (scripted 401)" } }) }),
        async ({ tui, ep, notes, shot }) => {
          const { seen } = await waitRouteNotice(tui)
          await tui.waitIdle(ep.inflight, 2000)
          const screen = shot("route-refused-notice")
          expect(ep.byKind("judge").every((r) => r.route === true)).toBe(true)
          expect(readable(screen)).toContain(
            "Automatic check: your provider refused the judge (HTTP 401): check its key. Judging rests 10 minutes. Model: mock/judge.",
          )
          // which model judges comes first, as on every first reply the route judges
          expect(readable(screen).indexOf(ROUTE_MODEL_NOTICE)).toBeGreaterThan(readable(screen).indexOf(WRONG))
          expect(readable(screen).indexOf(ROUTE_MODEL_NOTICE)).toBeLessThan(
            readable(screen).indexOf("Automatic check: your provider refused"),
          )
          expect(rowHolds(screen, WRONG)).toBe(true)
          expect(ANY_TOAST_RE.test(screen)).toBe(false)
          // opencode shows the judge session's error as a red toast of its own; the plugin takes it off at once
          const raw = seen.flatMap((s, i) => (s.includes("Invalid API key") ? [i] : []))
          const noticed = seen.findIndex((s) => s.includes("Automatic check: your provider refused"))
          expect(raw.every((i) => i < noticed)).toBe(true)
          notes.push(
            `screens polled every 20 ms until the notice: ${seen.length}; with opencode's raw error toast: ${raw.length}` +
              `${raw.length ? ` (screens ${(raw[0] ?? 0) + 1} to ${(raw.at(-1) ?? 0) + 1}, all before the notice)` : ""}`,
          )
        },
        { route: "opencode" },
      ),
    TIMEOUT,
  )

  /** T3's turn: every screen from the question until the notice of the refused judge has been drawn. */
  async function waitRouteNotice(tui: Tui) {
    const seen: string[] = []
    await tui.submit(QUESTION)
    await tui.waitForText("Judging rests 10 minutes.", WAIT, seen)
    return { seen }
  }

  for (const [label, size] of SIZES) {
    // 80x24 judges through opencode's provider, so the notice that names the judge model is on screen too
    const route: Route = label === "a" ? "opencode" : "direct"
    test(
      `T4${label}. undo after a correction (${size.join("x")}): the prompt box gets the user's own question, Enter sends it as theirs, redo brings the turn back`,
      () =>
        withTui(
          `T4${label} undo after a correction ${size.join("x")}`,
          judge,
          async ({ tui, ep, notes, shot }) => {
            const seen: string[] = []
            await tui.submit(QUESTION)
            await tui.waitForText(FIXED, WAIT, seen)
            // the notice: its two lines whole, each on one row, at this width
            const corrected = shot("notice")
            const rows = rowsOf(corrected)
            for (const line of NOTICE_LINES) expect(rows).toContain(line)
            if (route === "opencode") {
              // which of the user's models judges: said once, under the reply, before the note's notice; no toast
              const told = readable(seen.find((screen) => screen.includes("picks another")) ?? "")
              expect(told).toContain(ROUTE_MODEL_NOTICE)
              expect(told.indexOf(WRONG)).toBeLessThan(told.indexOf(ROUTE_MODEL_NOTICE))
              expect(seen.filter((screen) => TOAST_RE.test(screen))).toEqual([])
              const { first, covered } = replyCovered(seen, WRONG)
              expect(first).toBeGreaterThanOrEqual(0)
              expect(covered).toEqual([])
              notes.push(`screens polled until the correction: ${seen.length}; a toast on none`)
            }
            await tui.waitIdle(ep.inflight, 2000)

            // undo: the correction, the notice and the wrong reply go, and the prompt box holds the user's question
            tui.key("C-x", "u")
            const undone = await tui.waitForScreen(
              (screen) => promptInput(screen) === QUESTION && !screen.includes(WRONG),
              "the user's question back in the prompt box",
              15000,
            )
            shot("after-undo")
            expect(undone).not.toContain("Automatic check")
            expect(undone).toContain("message reverted")

            // redo: the whole turn is back, the notice too, and the prompt box is empty
            tui.key("C-x", "r")
            const redone = await tui.waitForScreen(
              (screen) => screen.includes(FIXED) && promptInput(screen) === "",
              "the turn restored and an empty prompt box",
              15000,
            )
            shot("after-redo")
            for (const line of NOTICE_LINES) expect(rowsOf(redone)).toContain(line)
            await Bun.sleep(1500)
            expect(promptInput(tui.capture())).toBe("")

            // undo again, then Enter: the question goes as the user's own message, judged as a new turn
            tui.key("C-x", "u")
            await tui.waitForScreen(
              (screen) => promptInput(screen) === QUESTION,
              "the question in the prompt box",
              15000,
            )
            const agentsBefore = ep.byKind("agent").length
            tui.key("Enter")
            // the question stands in the transcript as the user's message, and the prompt box is empty again
            await tui.waitForScreen(
              (screen) => transcriptRows(screen).includes(QUESTION) && promptInput(screen) === "",
              "the question sent as the user's message",
              15000,
            )
            shot("after-resend")
            await tui.waitForText(FIXED, 40000)
            await tui.waitIdle(ep.inflight, 2000)
            const resent = ep.byKind("agent").slice(agentsBefore)
            const first = agentContext(resent[0]?.body ?? {})
            expect(first.lastUserText).toBe(QUESTION)
            expect(first.isNote).toBe(false)
            expect(resent.some((request) => agentContext(request.body).isNote)).toBe(true)
            notes.push(
              `agent requests after Enter: ${resent.length}; the first one's last user text: ${first.lastUserText}`,
            )
          },
          { size, route },
        ),
      TIMEOUT,
    )
  }

  // A turn that edits a file: the agent reads facts.txt and notes.md, edits notes.md, then answers wrongly.
  const NOTES_BEFORE = "# Draft\nSurvey notes.\n"
  const NOTES_AFTER = "# Checked\nSurvey notes.\n"
  const editingAgent: AgentScript = (c) => {
    if (c.isNote) return { text: FIXED }
    if (c.step === 0) {
      return {
        tools: [
          { name: "read", args: { filePath: "facts.txt" } },
          { name: "read", args: { filePath: "notes.md" } },
        ],
      }
    }
    if (c.step === 1) {
      return { tools: [{ name: "edit", args: { filePath: "notes.md", oldString: "Draft", newString: "Checked" } }] }
    }
    return { text: WRONG }
  }
  const EDITED_FILES = { "facts.txt": SURVEY_NOTES, "notes.md": NOTES_BEFORE }

  /** opencode slowed to a quarter of one core, as a CPU limiter does: stopped 75 ms, then running 25 ms, over and over. */
  const SLOW = { runMs: 25, stopMs: 75 }

  /**
   * `/undo` typed as a user types it, into an opencode slowed by SLOW; the screen read once `ok` has held on
   * an unchanged screen for 4 s while slowed, and again for 2 s at full speed, so a late refill would show.
   */
  async function slowUndo(tui: Tui, ok: (screen: string) => boolean, what: string) {
    const release = tui.throttle(SLOW.runMs, SLOW.stopMs)
    const started = Date.now()
    try {
      await tui.submit("/undo")
      await waitSettled(tui, ok, what)
    } finally {
      await release()
    }
    const screen = await waitSettled(tui, ok, what, 2000)
    return { screen, seconds: (Date.now() - started) / 1000 }
  }

  /** What opencode alone (no plugin) leaves after the same turn and a slowed `/undo`: the prompt box and the file. */
  async function undoWithoutPlugin(size: [number, number]) {
    const ep = startEndpoint({ agent: editingAgent, judge })
    const scratch = makeScratch("tui-alone-")
    writeProject(scratch, { endpoint: ep, files: EDITED_FILES, plugin: { mode: "none" } })
    commitProject(scratch.project)
    const tui = await startTui({ scratch, cols: size[0], rows: size[1] })
    try {
      await tui.waitReady()
      await tui.submit(QUESTION)
      await tui.waitForText(WRONG, WAIT)
      await tui.waitIdle(ep.inflight, 2000)
      const { screen } = await slowUndo(
        tui,
        (s) => promptInput(s) !== "" && !s.includes(WRONG) && s.includes("notes.md"),
        "opencode's own undo of the turn",
      )
      return { box: promptInput(screen), notes: readFileSync(join(scratch.project, "notes.md"), "utf8") }
    } finally {
      await tui.stop()
      await ep.stop()
      rmSync(scratch.root, { recursive: true, force: true })
    }
  }

  for (const [label, size] of SIZES) {
    test(
      `T8${label}. /undo on a slowed opencode (${size.join("x")}), in a turn that edited a file: after the report the box stays empty; after the correction it holds the question and the file is restored, as without the plugin`,
      () =>
        withTui(
          `T8${label} slowed undo with a file edit ${size.join("x")}`,
          judge,
          async ({ tui, ep, notes, shot, scratch }) => {
            const file = () => readFileSync(join(scratch.project, "notes.md"), "utf8")
            await tui.submit(QUESTION)
            await tui.waitForText(FIXED, WAIT)
            await tui.waitIdle(ep.inflight, 2000)
            expect(file()).toBe(NOTES_AFTER)
            await openReport({ tui, ep, shot }, "slow-report", "This session:", WAIT)

            // the report goes; the box the TUI filled with it is empty once the screen has settled
            const report = await slowUndo(
              tui,
              (screen) =>
                !screen.includes("This session:") &&
                screen.includes(FIXED) &&
                screen.includes("message reverted") &&
                promptInput(screen) === "",
              "the report undone and an empty prompt box",
            )
            shot("slow-undo-report")
            expect(file()).toBe(NOTES_AFTER)

            // the turn goes: question back in the box, not the notice; the edit undone on disk
            const turn = await slowUndo(
              tui,
              (screen) =>
                promptInput(screen) === QUESTION &&
                !screen.includes(WRONG) &&
                !screen.includes("Automatic check") &&
                screen.includes("notes.md"),
              "the turn undone with the question in the prompt box",
            )
            shot("slow-undo-turn")
            expect(file()).toBe(NOTES_BEFORE)
            notes.push(
              `opencode stopped ${SLOW.stopMs} ms and run ${SLOW.runMs} ms in turn during each /undo; ` +
                `settled after ${report.seconds.toFixed(1)} s (report) and ${turn.seconds.toFixed(1)} s (turn)`,
            )
            if (label !== "b") return
            // the same turn and the same slowed /undo without the plugin: the same box, the same file
            const alone = await undoWithoutPlugin(size)
            expect(alone).toEqual({ box: promptInput(turn.screen), notes: file() })
            notes.push(`without the plugin: the box holds "${alone.box}", notes.md is back to "# Draft"`)
          },
          { size, agent: editingAgent, files: EDITED_FILES, git: true },
        ),
      2 * TIMEOUT,
    )
  }

  for (const [label, size] of SIZES) {
    test(
      `T5${label}. /ragfaith after a long reply (${size.join("x")}): the flagged reply first, ✗ then ?, the rest folded; undo leaves the prompt box empty`,
      () =>
        withTui(
          `T5${label} long report and undo ${size.join("x")}`,
          longJudge,
          async ({ tui, ep, notes, shot }) => {
            await tui.submit("Read facts.txt and tell me about the bridges")
            await tui.waitForText(FIXED, 40000)
            await tui.waitIdle(ep.inflight, 2000)
            const agentsBefore = ep.byKind("agent").length
            await openReport({ tui, ep, shot }, "report-end")
            const rows = await readBack(tui, "Automatic check: the reply that drew the last note")
            shot("report-top")
            const at = (text: string) => rows.findIndex((row) => row.includes(text))
            const marks = rows.flatMap((row) => (/^[✗?✓] /.test(row) ? [row[0]] : []))
            notes.push(`report rows read back: ${rows.length}; marks in order: ${marks.join("")}`)
            // the reply that drew the note first, its ✗ then its ?, the statements that hold up folded
            expect(marks).toEqual([..."✗✗✗✗✗", ..."????", "✓"])
            expect(at("Automatic check: the reply that drew the last note")).toBeLessThan(
              rows.findIndex((r) => r.startsWith("✗ ")),
            )
            expect(rows.findLastIndex((r) => r.startsWith("✗ "))).toBeLessThan(
              rows.findIndex((r) => r.startsWith("? ")),
            )
            expect(at("✓ 12 more statements hold up (/ragfaith all lists every one).")).toBeGreaterThan(
              rows.findLastIndex((r) => r.startsWith("? ")),
            )
            expect(at("Automatic check: the reply after it")).toBeGreaterThan(at("✓ 12 more statements"))
            // the sentence no request was spent on is named, with why, after the statements that were judged
            const skipped = at("Not judged, as they state nothing to check:")
            expect(skipped).toBeGreaterThan(at("✓ 12 more statements"))
            expect(rows[skipped + 1]).toContain(`- an offer or advice: "${LONG_OFFER}"`)
            expect(skipped).toBeLessThan(at("Automatic check: the reply after it"))
            expect(at("Its 1 statement holds up.")).toBeGreaterThan(at("the reply after it"))
            expect(at("This session: 22 statements judged, 1 note sent")).toBeGreaterThan(at("Its 1 statement"))
            // no line of the report was broken again by the terminal
            for (const row of rows) expect(row.length).toBeLessThanOrEqual(72)
            expect(rows.join("\n")).not.toMatch(/Details|opencode log|\(s\)/)
            expect(ep.byKind("agent").length).toBe(agentsBefore)

            // undo: the report goes, and the prompt box, which the TUI filled with it, is emptied
            tui.key("C-x", "u")
            const undone = await tui.waitForScreen(
              (screen) =>
                screen.includes("message reverted") &&
                !screen.includes("Automatic check: the reply that drew") &&
                promptInput(screen) === "",
              "the report gone and an empty prompt box",
              15000,
            )
            shot("after-report-undo")
            expect(undone).toContain(FIXED)
            await Bun.sleep(1500)
            const settled = tui.capture()
            expect(promptInput(settled)).toBe("")
            expect(settled).not.toContain("Automatic check: the reply that drew")
          },
          { size, agent: longAgent },
        ),
      TIMEOUT,
    )
  }

  // RFE_READ_NAMED: the agent answers from memory about a file it never read; what the person sees of it.
  const NET_TS = [
    "/** How many times a request is tried in all. */",
    "export const MAX_ATTEMPTS = 3",
    "",
    "/** Tries `fn` again after a fixed pause of 250 ms, up to MAX_ATTEMPTS times in all. */",
    "export async function retry<T>(fn: () => Promise<T>): Promise<T> {",
    "  for (let attempt = 1; ; attempt++) {",
    "    try {",
    "      return await fn()",
    "    } catch (error) {",
    "      if (attempt >= MAX_ATTEMPTS) throw error",
    "      await new Promise((resolve) => setTimeout(resolve, 250))",
    "    }",
    "  }",
    "}",
  ].join("\n")
  const FROM_MEMORY = "`retry()` in `src/net.ts` backs off exponentially, up to 5 attempts."
  const CORRECTED = "retry() in src/net.ts tries at most 3 times, with a fixed 250 ms pause."
  test(
    "T5. RFE_READ_NAMED: a claim about a file the agent never read; the notice cites the file the check read, the agent reads it and corrects itself, /ragfaith names the file",
    () =>
      withTui(
        "T5 read named file",
        (call) => {
          const file = call.sources.find((s) => s.text.includes("MAX_ATTEMPTS = 3"))
          if (file && /5 attempts/.test(call.claim)) {
            return { verdict: "unfaithful", source: file.id, quote: "export const MAX_ATTEMPTS = 3", reason: "3 tries" }
          }
          return file ? { verdict: "faithful", source: file.id } : { verdict: "unverifiable" }
        },
        async ({ tui, ep, shot }) => {
          await tui.submit("How does retry in src/net.ts behave?")
          await tui.waitForText("fixed 250 ms pause.", 90_000)
          await tui.waitIdle(ep.inflight, 2500)
          const corrected = readable(shot("named-correction"))
          const wrongAt = corrected.indexOf("backs off exponentially, up to 5 attempts.")
          const noticeAt = corrected.indexOf("Automatic check:", wrongAt)
          const fixedAt = corrected.indexOf(CORRECTED, noticeAt)
          expect(wrongAt).toBeGreaterThanOrEqual(0)
          expect(noticeAt).toBeGreaterThan(wrongAt)
          // The notice may shorten the source's label to keep its two rows; /ragfaith below gives it whole.
          expect(corrected.slice(noticeAt, fixedAt)).toContain("conflicts with src/net.ts:1-14, read by")
          expect(fixedAt).toBeGreaterThan(noticeAt)
          // the agent's own read of the file shows between the notice and the correction
          expect(ep.byKind("agent").length).toBe(3)

          const report = await openReport({ tui, ep, shot }, "named-report", "Judge: judge-main")
          expect(report).toContain("The check read a file the agent never read, to judge against: src/net.ts:1-14.")
          expect(report).toContain("unfaithful: src/net.ts:1-14, read by the check")
        },
        {
          files: { "src/net.ts": NET_TS },
          env: { RFE_READ_NAMED: "1" },
          agent: (c) => {
            if (!c.isNote) return { text: FROM_MEMORY }
            if (c.step === 0) return { tools: [{ name: "read", args: { filePath: "src/net.ts" } }] }
            return { text: CORRECTED }
          },
        },
      ),
    TIMEOUT,
  )

  // Three wrong statements: the notice names the first one's wrong part, the others counted.
  const SEVERAL = [
    "The capital of Freedonia is Fredville.",
    "Seven bridges span the Zeppo river in Freedonia.",
    "Freedonia's national animal is the blue whale.",
  ]
  const severalAgent: AgentScript = (c) => {
    if (c.isNote) return { text: FIXED }
    if (c.step === 0) return { tools: [{ name: "read", args: { filePath: "facts.txt" } }] }
    return { text: SEVERAL.join(" ") }
  }
  const severalJudge: JudgeRule = (call) => {
    const source = call.sources.find((s) => s.text.includes("bridges"))?.id ?? "S1"
    if (/Fredville/.test(call.claim)) {
      return { verdict: "unfaithful", source, quote: "The capital of Freedonia is Marxburg.", reason: "Marxburg" }
    }
    if (/Seven/.test(call.claim)) return judge(call)
    if (/whale/.test(call.claim)) {
      return { verdict: "unfaithful", source, quote: "Freedonia has 3 bridges over the river Zeppo.", reason: "no" }
    }
    return { verdict: "faithful", source, reason: "stated in the file" }
  }
  const SEVERAL_NOTICE = 'Automatic check: "…is Fredville." conflicts with facts.txt:1-4, which'

  for (const [label, size] of SIZES) {
    test(
      `T6${label}. several wrong statements (${size.join("x")}): the notice names the first one's wrong part and the source's words; /ragfaith wrong marks it, for good with RFE_CACHE_DIR`,
      async () => {
        const cacheDir = mkdtempSync(join(tmpdir(), "tui-cache-"))
        await withTui(
          `T6${label} several flags and /ragfaith wrong ${size.join("x")}`,
          severalJudge,
          async ({ tui, ep, notes, shot, scratch }) => {
            await tui.submit("Read facts.txt and tell me about Freedonia")
            await tui.waitForText(FIXED, 120000)
            await tui.waitIdle(ep.inflight, 2000)
            const rows = rowsOf(shot("several-notice"))
            // the first statement's wrong part (Fredville) and the source's words for it (Marxburg), in two rows
            const at = rows.findIndex((row) => row.includes(SEVERAL_NOTICE))
            expect(at).toBeGreaterThanOrEqual(0)
            expect(rows[at + 1]).toBe('says "Marxburg". Asking the agent to fix it and 2 more; see /ragfaith.')
            // /ragfaith wrong: the flags of the last note are marked wrong, and it says for how long
            await tui.submit("/ragfaith", 1)
            await tui.submit("wrong")
            const answer = readable(await tui.waitForText("marked wrong:", 60000))
            shot("ragfaith-wrong")
            expect(answer).toContain('marked wrong: "The capital of Freedonia is Fredville."')
            expect(answer).toContain("not flagged again in this project.")
            await tui.waitIdle(ep.inflight, 1500)
            notes.push(`notice rows: ${rows[at]} / ${rows[at + 1]}`)
            if (label !== "b") return
            // a new opencode on the same project and cache: the same reply draws no notice
            await tui.stop()
            const again = await startTui({ scratch, env: { ...judgeEnv(ep.judgeBaseURL), RFE_CACHE_DIR: cacheDir } })
            try {
              await again.waitReady()
              const agentsBefore = ep.byKind("agent").length
              await again.submit("Read facts.txt and tell me about Freedonia")
              await again.waitForText(SEVERAL[2] as string, 120000)
              await again.waitIdle(ep.inflight, 3000)
              const after = again.capture()
              expect(after).not.toContain("Automatic check")
              // read, reply: no correction turn
              expect(ep.byKind("agent").length - agentsBefore).toBe(2)
              notes.push("after a restart with the same RFE_CACHE_DIR: no notice, no correction turn")
            } finally {
              await again.stop()
            }
          },
          { size, agent: severalAgent, env: { RFE_CACHE_DIR: cacheDir } },
        ).finally(() => rmSync(cacheDir, { recursive: true, force: true }))
      },
      // a restart inside the test: twice a TUI's time
      2 * TIMEOUT,
    )
  }
})
