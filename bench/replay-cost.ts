/**
 * Judge requests per final reply on public agent sessions replayed through the fake host, with the relevance
 * gate and context-free verdict reuse off (what the plugin did before them) and on (the default).
 *
 *   bun bench/replay-cost.ts [--opencode=/path/to/victoryforphil+dark-factory/repo]
 *                            [--swe=/path/to/gruckion+mini-swe-agent/repo] [--limit=N]
 *
 * Two public sets, read at run time from bare git mirrors; nothing of them is kept here:
 * - opencode sessions: victoryforphil/dark-factory commit 65455d0 holds `opencode export` JSON of 18 real
 *   sessions (`docs/chats/opencode/*.json`, opencode 1.2.5, GPT-5.3 Codex and others) that used opencode's own
 *   read, glob, grep, apply_patch, bash and webfetch tools. Each becomes one session on the fake host: every
 *   user message, every tool call as it ended (with its real input and output, or failed with its real error,
 *   as opencode reports a failure), and each assistant message that finished with `stop` as the reply that is
 *   judged (bench/opencode-export.ts reads them).
 * - SWE-bench agents: gruckion/mini-swe-agent's `swebench_results/20251118_gemini-3-pro-74pct`, replayed as
 *   bench/trajectories.ts does (bash only; each THOUGHT is a final reply); the first `--limit` (default 40).
 *
 * The judge on 127.0.0.1 answers every statement faithful, quoting the first words of the first source it was
 * given, so a verdict can be reused the way a real judge's quoted verdict can; it contradicts nothing, so the
 * figures hold no second opinions (bench/noisy.ts counts those). Printed: final replies, judge requests, and
 * requests per final reply before and after.
 */

import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { indexSources, termsOf } from "../src/judge/relevance.ts"
import { createHost } from "../test/support/host.ts"
import { type JudgeCall, type JudgeReply, judgeEnv, withJudge } from "../test/support/judge.ts"
import { table } from "./lib.ts"
import { type ExportTurn, exportsOf } from "./opencode-export.ts"
import { readTrajectory, type Trajectory } from "./trajectories.ts"

type Mode = "before" | "after"

/** `--list`: every statement sent after the gate, with the terms it shares with the sources, to read by hand. */
const listed: string[] = []
/** `--list`: every statement the gate held back. */
const heldBack: string[] = []

/** Notes what the gate held back in the session's last reply, for `--list`. */
function noteHeldBack(host: ReturnType<typeof createHost>, session: string) {
  if (!process.argv.includes("--list")) return
  const report = host.plugin.sessions.get(session)?.report
  for (const item of report?.notClaims ?? []) {
    if (item.why === "nothing in the sources speaks to it") heldBack.push(`- ${JSON.stringify(item.text)}`)
  }
}

/** A judge that holds every statement up with a quote that stands in a source: the first words of one. */
function quotingJudge(call: JudgeCall): JudgeReply {
  if (process.argv.includes("--list")) {
    const texts = (calls: boolean) => call.sources.filter((source) => (source.id === "P") === calls).map((s) => s.text)
    const index = indexSources(texts(false), texts(true))
    const shared = [...termsOf(call.claim)].filter((term) => index.sources.has(term) || index.calls.has(term))
    listed.push(`- [${shared.join(" ")}] ${JSON.stringify(call.claim)}`)
  }
  for (const source of call.sources) {
    const line = source.text
      .split("\n")
      .map((text) => text.replace(/^\s*(?:-\s|\d+: )/, "").trim())
      .find((text) => text.length >= 12 && !/[<>]/.test(text))
    if (line) return { verdict: "faithful", source: source.id, quote: line.slice(0, 40) }
  }
  return { verdict: "unverifiable" }
}

const git = (repo: string, ...args: string[]) =>
  execFileSync("git", ["--git-dir", repo, ...args], { encoding: "utf8", maxBuffer: 1 << 28 })

function hostFor(url: string, mode: Mode, directory: string) {
  const env = judgeEnv(url, { RFE_RELEVANCE: mode === "before" ? "off" : undefined })
  return createHost({
    env,
    directory,
    correct: () => undefined,
    adjust: (config) => ({ ...config, checks: { ...config.checks, reuse: mode === "after" } }),
  })
}

/** One exported opencode session through the plugin: its user messages, tool calls (failed ones too) and replies. */
async function replayExport(turns: readonly ExportTurn[], url: string, mode: Mode, directory: string) {
  const host = hostFor(url, mode, directory)
  const session = await host.createSession()
  let userID = ""
  let replies = 0
  for (const turn of turns) {
    if (turn.user !== undefined || !userID) userID = await host.userMessage(session, turn.user ?? "Continue.")
    for (const step of turn.tools) {
      const result = step.error
        ? { error: step.error }
        : { output: step.output ?? "", metadata: step.metadata ?? {}, title: step.title ?? step.tool }
      await host.toolCall(session, userID, step.tool, step.args, result)
    }
    await host.reply(session, userID, turn.reply)
    await host.settle()
    if (mode === "after") noteHeldBack(host, session)
    replies++
  }
  return { replies, counters: host.plugin.counters }
}

/** One mini-swe-agent trajectory, as bench/trajectories.ts replays it. */
async function replayTrajectory(trajectory: Trajectory, url: string, mode: Mode) {
  const host = hostFor(url, mode, "/testbed")
  const session = await host.createSession()
  let userID = await host.userMessage(session, trajectory.task)
  let replies = 0
  for (const [index, step] of trajectory.steps.entries()) {
    const previous = trajectory.steps[index - 1]
    if (index > 0) userID = await host.userMessage(session, "Continue.")
    if (previous?.command) {
      const metadata = previous.exit === undefined ? {} : { exit: previous.exit }
      const args = { command: previous.command, description: "step" }
      await host.toolCall(session, userID, "bash", args, { output: previous.output, metadata })
    }
    if (!step.thought) continue
    await host.reply(session, userID, step.thought)
    await host.settle()
    if (mode === "after") noteHeldBack(host, session)
    replies++
  }
  return { replies, counters: host.plugin.counters }
}

interface Totals {
  sessions: number
  replies: number
  requests: number
  statements: number
  unrelated: number
  cacheHits: number
  /** Bytes of the request bodies sent: what input tokens are billed on (about bytes / 4). */
  bytes: number
}

const zero = (): Totals => ({
  sessions: 0,
  replies: 0,
  requests: 0,
  statements: 0,
  unrelated: 0,
  cacheHits: 0,
  bytes: 0,
})

function add(totals: Totals, run: Awaited<ReturnType<typeof replayTrajectory>>) {
  totals.sessions++
  totals.replies += run.replies
  totals.requests += run.counters.requests
  totals.statements += run.counters.statements
  totals.unrelated += run.counters.unrelated
  totals.cacheHits += run.counters.cacheHits
}

async function opencodeSessions(repo: string, url: string, mode: Mode): Promise<Totals> {
  const totals = zero()
  for (const { directory, turns } of exportsOf(repo)) add(totals, await replayExport(turns, url, mode, directory))
  return totals
}

async function sweSessions(repo: string, url: string, mode: Mode, limit: number): Promise<Totals> {
  const totals = zero()
  const paths = git(repo, "ls-tree", "-r", "--name-only", "HEAD")
    .split("\n")
    .filter((path) => path.endsWith(".traj.json") && path.includes("20251118_gemini-3-pro-74pct"))
    .sort()
    .slice(0, limit)
  for (const path of paths) {
    const trajectory = readTrajectory(path, git(repo, "show", `HEAD:${path}`))
    if (trajectory) add(totals, await replayTrajectory(trajectory, url, mode))
  }
  return totals
}

/** A replay's totals with the bytes of the requests it sent. */
async function measured(requests: readonly JudgeCall[], replay: () => Promise<Totals>): Promise<Totals> {
  const from = requests.length
  const totals = await replay()
  totals.bytes = requests.slice(from).reduce((sum, call) => sum + Buffer.byteLength(call.raw), 0)
  return totals
}

function rows(name: string, before: Totals, after: Totals): Array<Array<string | number>> {
  const per = (totals: Totals) => (totals.replies ? totals.requests / totals.replies : 0)
  const ratio = per(before) ? per(after) / per(before) : 0
  return [
    [
      name,
      before.sessions,
      before.replies,
      `${before.requests} → ${after.requests}`,
      `${per(before).toFixed(2)} → **${per(after).toFixed(2)}**`,
      `${ratio.toFixed(2)}×`,
      after.unrelated,
      `${before.cacheHits} → ${after.cacheHits}`,
      `${(before.bytes / 4e6).toFixed(1)}M → ${(after.bytes / 4e6).toFixed(1)}M`,
    ],
  ]
}

async function main() {
  const arg = (name: string) => process.argv.find((value) => value.startsWith(`--${name}=`))?.slice(name.length + 3)
  const opencode = arg("opencode") ?? "/work/.mirror/victoryforphil+dark-factory/repo"
  const swe = arg("swe") ?? "/work/.mirror/gruckion+mini-swe-agent/repo"
  const limit = Number(arg("limit") ?? 40)
  const print = (text = "") => process.stdout.write(`${text}\n`)
  const started = performance.now()
  const table_: Array<Array<string | number>> = []
  await withJudge(quotingJudge, async (judge) => {
    if (existsSync(opencode)) {
      const before = await measured(judge.requests, () => opencodeSessions(opencode, judge.url, "before"))
      const after = await measured(judge.requests, () => opencodeSessions(opencode, judge.url, "after"))
      table_.push(...rows("opencode sessions (victoryforphil/dark-factory)", before, after))
    } else print(`no mirror at ${opencode}: the opencode sessions are skipped`)
    if (existsSync(swe)) {
      const before = await measured(judge.requests, () => sweSessions(swe, judge.url, "before", limit))
      const after = await measured(judge.requests, () => sweSessions(swe, judge.url, "after", limit))
      table_.push(...rows(`mini-swe-agent, SWE-bench Verified (first ${limit})`, before, after))
    } else print(`no mirror at ${swe}: the SWE-bench trajectories are skipped`)
  })
  print("## Judge requests per final reply, replayed public sessions (gate and reuse off → on)")
  print()
  print(
    table(
      [
        "sessions",
        "n",
        "final replies",
        "requests",
        "per final reply",
        "after/before",
        "not sent",
        "cache hits",
        "≈ input tokens",
      ],
      table_,
    ),
  )
  print()
  print(`(${((performance.now() - started) / 1000).toFixed(0)} s)`)
  if (listed.length) print(["", "Statements sent, with the terms they share:", ...listed].join("\n"))
  if (heldBack.length) print(["", "Statements held back by the gate:", ...heldBack].join("\n"))
}

if (import.meta.main) await main()
