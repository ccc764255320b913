/**
 * The judge route through opencode against the direct route, in the real opencode 1.18.33 (`opencode serve`,
 * the live harness): what one judge call costs on top of the judge's own answer time, and how long the user's
 * next turn takes while a reply is being judged.
 *
 *   bun bench/route.ts       this benchmark alone (also section 10 of `bun bench/run.ts`)
 *
 * The judge answers after a fixed delay, so what is left is the plugin's and opencode's own work. Both routes
 * run in one process on the same machine, one after the other: compare their ratio, not the absolute times.
 */

import {
  type AgentScript,
  cleanupAll,
  type Endpoint,
  type Opencode,
  type RecordedRequest,
  ROUTE_JUDGE_MODEL,
  startEndpoint,
  startOpencode,
} from "../test/live/harness.ts"
import { SURVEY_NOTES } from "../test/support/fixtures.ts"
import { type JudgeRule, judgeEnv } from "../test/support/judge.ts"
import { fmtMs, median, table } from "./lib.ts"

type Route = "direct" | "opencode"

/** Claims a judge must read (none stands word for word in facts.txt), distinct per round so no cache answers. */
const roundClaims = (round: number, count: number) =>
  Array.from({ length: count }, (_, i) => `Survey ${round} counted ${i + 4} ferries on the Zeppo in spring.`).join(" ")

const CLAIMS = 8
/** Turns measured on each side (judging off, judging on). */
const TURN_ROUNDS = 6

// "Round N": read facts.txt, then answer with CLAIMS statements; anything else: a short reply with no tool.
const agent: AgentScript = (c) => {
  const round = /^Round (\d+)/.exec(c.lastUserText)?.[1]
  if (!round) return { text: "Noted." }
  if (c.step === 0) return { tools: [{ name: "read", args: { filePath: "facts.txt" } }] }
  return { text: roundClaims(Number(round), CLAIMS) }
}

const slowFaithful =
  (delayMs: number): JudgeRule =>
  (call) => ({ verdict: "faithful", source: call.sources[0]?.id ?? "S1", reason: "stated", delayMs })

/** One opencode with the plugin on the given route, a session in it, and a first turn done (opencode warms up). */
async function startRoute(route: Route, judgeDelayMs: number, env: Record<string, string> = {}) {
  const ep = startEndpoint({ agent, judge: slowFaithful(judgeDelayMs) })
  const oc = await startOpencode({
    endpoint: ep,
    files: { "facts.txt": SURVEY_NOTES },
    plugin: { mode: "copy" },
    env: { ...(route === "direct" ? judgeEnv(ep.judgeBaseURL) : {}), ...env },
    ...(route === "opencode" ? { extraConfig: { small_model: `mock/${ROUTE_JUDGE_MODEL}` } } : {}),
  })
  const session = (await oc.createSession()).id
  await oc.prompt(session, "Warm up")
  await oc.waitQuiet({ quietMs: 500 })
  return { ep, oc, session }
}

const judgeCalls = (ep: Endpoint) => ep.byKind("judge")
const waitCalls = (oc: Opencode, ep: Endpoint, count: number, done = true) =>
  oc.waitFor(() => judgeCalls(ep).filter((r) => !done || r.done).length >= count, 60_000, `${count} judge calls`)

/** The gaps between one judge answer and the next request, with one call at a time: the cost of a call. */
function gapsOf(calls: readonly RecordedRequest[]) {
  const sorted = [...calls].sort((a, b) => a.startedAt - b.startedAt)
  return sorted.slice(1).map((call, i) => call.startedAt - (sorted[i] as RecordedRequest).endedAt)
}

/** Per-call overhead with one call at a time: three rounds of CLAIMS calls, and the wait before the first. */
async function perCall(route: Route) {
  const { ep, oc, session } = await startRoute(route, 50, { RFE_JUDGE_CONCURRENCY: "1" })
  const gaps: number[] = []
  const firsts: number[] = []
  try {
    for (let round = 1; round <= 3; round++) {
      const before = judgeCalls(ep).length
      await oc.prompt(session, `Round ${round}`)
      const replyEnd = Math.max(...ep.byKind("agent").map((r) => r.endedAt))
      await waitCalls(oc, ep, before + CLAIMS)
      const calls = judgeCalls(ep).slice(before)
      gaps.push(...gapsOf(calls))
      firsts.push(Math.min(...calls.map((c) => c.startedAt)) - replyEnd)
      await oc.waitQuiet({ quietMs: 300 })
    }
  } finally {
    await oc.stop()
    await ep.stop()
  }
  return { gap: median(gaps), first: median(firsts), calls: gaps.length + 3 }
}

/** The user's next turn, sent while the last reply's claims are being judged, against the same with judging off. */
async function turnWhileJudged(route: Route) {
  const { ep, oc, session } = await startRoute(route, 400)
  const overlaps: number[] = []
  const quickTurn = async (label: string, judging: boolean) => {
    const t0 = performance.now()
    const from = Date.now()
    await oc.prompt(session, label)
    const to = Date.now()
    // judge calls that were running at some point of the turn
    if (judging) overlaps.push(judgeCalls(ep).filter((r) => r.startedAt < to && (!r.done || r.endedAt > from)).length)
    return performance.now() - t0
  }
  const off: number[] = []
  const on: number[] = []
  try {
    // off and on alternate, so neither side gets the warmer opencode
    for (let round = 1; round <= 2 * TURN_ROUNDS; round++) {
      const judging = round % 2 === 0
      await oc.command(session, "ragfaith", judging ? "on" : "off")
      const before = judgeCalls(ep).length
      await oc.prompt(session, `Round ${round}`)
      // the next prompt goes in 300 ms after the reply either way (opencode finishes its own work on the turn
      // first); with judging on, the judge has the first claims by then, and the turn runs beside the judging
      await Bun.sleep(300)
      if (judging) await waitCalls(oc, ep, before + 1, false)
      const ms = await quickTurn(`Quick ${round}`, judging)
      ;(judging ? on : off).push(ms)
      await oc.waitQuiet({ quietMs: 500 })
    }
  } finally {
    await oc.stop()
    await ep.stop()
  }
  return { off: median(off), on: median(on), overlapping: median(overlaps) }
}

export async function benchRoute(print: (line?: string) => void) {
  print("## 10. The judge route through opencode against the direct route (real opencode)")
  print()
  print(
    `\`opencode serve\` 1.18.33 with the plugin copied in, the scripted agent and judge on 127.0.0.1. A reply of ${CLAIMS} ` +
      "claims after a read; the judge answers each after a fixed delay and calls them faithful. Direct: the plugin " +
      "posts to the judge itself. Route: no judge key, the small model judges through opencode (a titled child " +
      "session of the plugin's hidden agent per call, deleted after its answer). Medians: of three rounds of calls, of " +
      `${TURN_ROUNDS} turns on each side, judging off and on alternating.`,
  )
  print()
  const direct = await perCall("direct")
  const routed = await perCall("opencode")
  print(
    table(
      ["one call at a time (judge answers in 50 ms)", "direct", "route", "route − direct"],
      [
        [
          "between one answer and the next request",
          fmtMs(direct.gap),
          fmtMs(routed.gap),
          fmtMs(routed.gap - direct.gap),
        ],
        [
          "from the end of the reply to the first judge request",
          fmtMs(direct.first),
          fmtMs(routed.first),
          fmtMs(routed.first - direct.first),
        ],
      ],
    ),
  )
  print()
  const directTurn = await turnWhileJudged("direct")
  const routedTurn = await turnWhileJudged("opencode")
  print(
    table(
      [
        "the user's next turn (a short reply, no tool)",
        "judging off",
        "while judged",
        "ratio",
        "judge calls during it",
      ],
      [
        [
          "direct (8 at once, 400 ms each)",
          fmtMs(directTurn.off),
          fmtMs(directTurn.on),
          ratio(directTurn),
          directTurn.overlapping,
        ],
        [
          "route (4 at once, 400 ms each)",
          fmtMs(routedTurn.off),
          fmtMs(routedTurn.on),
          ratio(routedTurn),
          routedTurn.overlapping,
        ],
      ],
    ),
  )
  print()
  return { direct, routed, directTurn, routedTurn }
}

const ratio = ({ off, on }: { off: number; on: number }) => `${(on / off).toFixed(2)}×`

if (import.meta.main) {
  try {
    await benchRoute((line = "") => console.log(line))
  } finally {
    await cleanupAll()
  }
}
