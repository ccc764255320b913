/**
 * The fault suite's shared ground: every hardening promise of the plugin, proven end to end through the fake
 * host. The fault files (test/judge/faults.test.ts, test/host/faults.test.ts, test/judge/cache-faults.test.ts,
 * test/judge/security.test.ts, test/base/bounds.test.ts) run every case on the watched host below, which times
 * each hook opencode awaits and records every rejection, so one health check (`expectHealthy`) holds across
 * all of them. The area files test what a behaviour does; the fault files test what survives when its inputs
 * turn hostile (a failing judge, a broken host, a full disk, racing sessions, secrets, unbounded input).
 *
 * Each case checks, where it applies: no exception reaches the host (every hook promise resolves), no
 * unhandled rejection, the hooks opencode awaits return at once even while the judge is failing or hanging,
 * the session settles, the counters tell what happened, and a persistent failure reaches the user once.
 */

import { expect, test } from "bun:test"
import { FACTS, WRONG_REPLY } from "./fixtures.ts"
import { createHost, type HostOptions, nextId } from "./host.ts"
import type { JudgeReply } from "./judge.ts"

// Bun's test runner also fails the running test on an unhandled rejection; this records them for the
// final check, in case one lands between tests.
export const rejections: unknown[] = []
process.on("unhandledRejection", (reason) => {
  rejections.push(reason)
})

/** Three claims, none verbatim in FACTS, so each one needs the judge. */
export const THREE = "Fredville is the capital city. Fredville has exactly three bridges. The national animal is a fox."
export const WRONG = WRONG_REPLY
/** Verbatim in FACTS: the zero-token gate settles it without any judge call. */
export const VERBATIM = "The capital of Freedonia is Fredville."

/** Unfaithful for the bridge count, faithful otherwise. */
export const bridgeRule = (claim: string): JudgeReply =>
  /7 bridges/.test(claim)
    ? { verdict: "unfaithful", source: "S1", quote: "has 3 bridges", reason: "the file says 3 bridges" }
    : { verdict: "faithful", source: "S1", reason: "stated" }

// ── the watched host ─────────────────────────────────────────────────────────────────────────────────────

/** The hooks opencode awaits: a slow one blocks a tool, a turn or a prompt. */
const AWAITED = new Set([
  "chat.message",
  "chat.params",
  "tool.execute.before",
  "tool.execute.after",
  "experimental.text.complete",
])

type LooseHook = (...args: unknown[]) => Promise<void>

/**
 * A fake host whose hooks are timed and whose hook rejections are recorded instead of thrown. The host's
 * own helpers (readTurn, reply, ...) call through `host.hooks`, so they are watched too.
 */
export function watchedHost(opts: HostOptions) {
  const host = createHost(opts)
  const slowest = { hook: "", ms: 0 }
  const durations: number[] = []
  const hookErrors: Array<{ hook: string; error: unknown }> = []
  const hooks = host.hooks as unknown as Record<string, LooseHook>
  for (const [name, hook] of Object.entries(hooks)) {
    hooks[name] = async (...args) => {
      const started = performance.now()
      try {
        await hook(...args)
      } catch (error) {
        hookErrors.push({ hook: name, error })
      }
      const ms = performance.now() - started
      if (!AWAITED.has(name)) return
      durations.push(ms)
      if (ms > slowest.ms) Object.assign(slowest, { hook: name, ms })
    }
  }
  const call = (name: string, ...args: unknown[]) => (hooks[name] as LooseHook)(...args)
  return Object.assign(host, { slowest, durations, hookErrors, call })
}

export type Watched = ReturnType<typeof watchedHost>

/**
 * Nothing escaped to the host, nothing was swallowed as an internal error, and no awaited hook dawdled.
 * `bulk`: over tens of thousands of calls a garbage-collection pause may land inside one of them, so the
 * 99.9th percentile is held to the bound instead of the single slowest call.
 */
export function expectHealthy(host: Watched, options: { internalErrors?: boolean; bulk?: boolean } = {}) {
  expect(host.hookErrors).toEqual([])
  expect(rejections).toEqual([])
  if (options.bulk) {
    const sorted = [...host.durations].sort((a, b) => a - b)
    expect(sorted[Math.floor(sorted.length * 0.999)] ?? 0).toBeLessThan(50)
  } else {
    expect(host.slowest.ms).toBeLessThan(50)
  }
  if (!options.internalErrors) expect(host.logs.filter((line) => line.level === "error")).toEqual([])
}

/**
 * One call of every awaited hook on a session of its own, the way a parallel session would make them while
 * another session's reply is being judged.
 */
export async function sideTraffic(host: Watched) {
  const sessionID = nextId("ses")
  const message = { id: nextId("msg"), role: "user", sessionID, agent: "build" }
  const model = { providerID: "mock", modelID: "scripted" }
  await host.call(
    "chat.message",
    { sessionID, agent: "build", model },
    { message, parts: [{ id: nextId("prt"), messageID: message.id, sessionID, type: "text", text: "hi" }] },
  )
  await host.call("chat.params", { sessionID, agent: "build", model: { id: "scripted", providerID: "mock" } }, {})
  const callID = nextId("call")
  await host.call("tool.execute.before", { tool: "read", sessionID, callID }, { args: { filePath: FACTS.path } })
  await host.call(
    "tool.execute.after",
    { tool: "read", sessionID, callID, args: { filePath: FACTS.path } },
    { title: "facts.txt", output: FACTS.text, metadata: {} },
  )
  await host.call(
    "experimental.text.complete",
    { sessionID, messageID: nextId("msg"), partID: nextId("prt") },
    { text: "Side traffic." },
  )
}

/**
 * Two consecutive turns in one session with the same question and reply (a replay), each with every awaited
 * hook exercised while it is judged.
 */
export async function twoReplies(host: Watched, reply = THREE) {
  const session = await host.createSession()
  await host.readTurn(session, "Tell me about Freedonia", FACTS, reply)
  const inFlight = host.plugin.pending.size
  await sideTraffic(host)
  await host.settle()
  const first = { ...host.plugin.counters, sleeps: [...host.sleeps], notices: host.notices.length }
  const next = await host.userMessage(session, "Tell me about Freedonia")
  await host.reply(session, next, reply)
  await sideTraffic(host)
  await host.settle()
  return { session, inFlight, first }
}

/** The last test of a fault file: no rejection landed between its tests either. */
export function expectNoRejections() {
  test("no unhandled promise rejection was seen in the whole suite", () => {
    expect(rejections).toEqual([])
  })
}
