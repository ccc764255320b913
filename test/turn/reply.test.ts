// The conductor at idle: one reply's claims judged, one note sent, the cascade bounded, stale work dropped.

import { afterAll, describe, expect, test } from "bun:test"
import { FACTS } from "../support/fixtures.ts"
import { createHost } from "../support/host.ts"
import { judgeEnv, startJudge, withJudge } from "../support/judge.ts"
import { bridgesAndWhale, FAITHFUL, heldJudge, TWO_WRONG } from "../support/turns.ts"

const judge = startJudge(bridgesAndWhale)
/** A judge that flags every claim: only the cascade bounds stop the notes. */
const always = startJudge(() => ({
  verdict: "unfaithful",
  source: "S1",
  quote: "It has 3 bridges",
  reason: "contradicted",
}))
afterAll(() => {
  judge.stop()
  always.stop()
})

describe("judging at idle", () => {
  test("a faithful reply is silent: judge calls made, no note", async () => {
    const before = judge.requests.length
    const host = createHost({ env: judgeEnv(judge.url) })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, FAITHFUL)
    await host.settle()
    expect(judge.requests.length - before).toBe(2)
    expect(host.prompts).toHaveLength(0)
    expect(host.toasts).toHaveLength(0)
  })

  test("two unfaithful claims produce exactly one note naming both, with the source and reason", async () => {
    const host = createHost({ env: judgeEnv(judge.url) })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, TWO_WRONG)
    await host.settle()
    expect(host.prompts).toHaveLength(1)
    const note = host.prompts[0]
    expect(note?.synthetic).toBe(true)
    expect(note?.sessionID).toBe(session)
    expect(note?.text.startsWith("[ragfaith]")).toBe(true)
    expect(note?.text).toContain('"It has 7 bridges."')
    expect(note?.text).toContain('"Its national animal is the blue whale."')
    expect(note?.text).toContain("[source: facts.txt:1-2]")
    expect(note?.text).toContain("the file says 3 bridges")
    expect(note?.text).not.toContain("Fredville is the capital city")
    expect(note?.text).toMatch(/only the corrected content/)
    expect(note?.text).not.toMatch(/cite the source it rests on/)
  })

  test("the note carries the agent and model of the last real user message", async () => {
    const host = createHost({ env: judgeEnv(judge.url) })
    const session = await host.createSession()
    const userID = await host.userMessage(session, "Tell me about Freedonia", false, "plan")
    await host.toolCall(session, userID, "read", { filePath: FACTS.path }, { output: FACTS.text })
    await host.reply(session, userID, TWO_WRONG)
    await host.settle()
    expect(host.prompts[0]?.agent).toBe("plan")
    expect(host.prompts[0]?.model).toEqual({ providerID: "mock", modelID: "scripted" })
  })

  test("intermediate replies of a turn are never judged, only the final one", async () => {
    const before = judge.requests.length
    const host = createHost({ env: judgeEnv(judge.url) })
    const session = await host.createSession()
    const userID = await host.userMessage(session, "Tell me about Freedonia")
    await host.toolCall(session, userID, "read", { filePath: FACTS.path }, { output: FACTS.text })
    // A progress message that finishes with tool-calls is followed by the final reply.
    await host.reply(session, userID, "Fredville has nine bridges according to my memory of it.", { idle: false })
    await host.event("message.updated", {
      sessionID: session,
      info: { id: "msg_progress_fix", role: "assistant", sessionID: session, finish: "tool-calls" },
    })
    await host.reply(session, userID, FAITHFUL)
    await host.settle()
    const claims = judge.requests.slice(before).map((request) => request.claim)
    expect(claims.some((claim) => claim.includes("nine bridges"))).toBe(false)
    expect(host.prompts).toHaveLength(0)
  })

  test("no premises in the session: no judge call at all", async () => {
    const before = judge.requests.length
    const host = createHost({ env: judgeEnv(judge.url) })
    const session = await host.createSession()
    const userID = await host.userMessage(session, "What is Freedonia?")
    await host.reply(session, userID, TWO_WRONG)
    await host.settle()
    expect(judge.requests.length).toBe(before)
    expect(host.prompts).toHaveLength(0)
  })

  test("subagent sessions are neither judged nor sent a note", async () => {
    const before = judge.requests.length
    const host = createHost({ env: judgeEnv(judge.url) })
    const parent = await host.createSession()
    const child = await host.createSession(parent)
    await host.readTurn(child, "Research Freedonia", FACTS, TWO_WRONG)
    await host.settle()
    expect(judge.requests.length).toBe(before)
    expect(host.prompts).toHaveLength(0)
  })

  test.each([
    ["a top-level session is judged", undefined, true],
    ["a child session stays unjudged", "ses_parent", false],
  ])("joining mid-session, the host is asked for the parent once: %s", async (_name, parent, judged) => {
    const before = judge.requests.length
    const host = createHost({ env: judgeEnv(judge.url), sessionParent: () => parent })
    const session = `ses_unseen_${parent ?? "top"}`
    await host.readTurn(session, "Tell me about Freedonia", FACTS, TWO_WRONG)
    await host.settle()
    expect(host.sessionLookups).toEqual([session])
    expect(judge.requests.length > before).toBe(judged)
    expect(host.prompts).toHaveLength(judged ? 1 : 0)
  })
})

describe("verdict flag sets", () => {
  const UNVERIFIABLE = "Fredville is the capital city of Freedonia. Freedonia has a population of two million people."

  test("normal strictness flags only unfaithful claims", async () => {
    const host = createHost({ env: judgeEnv(judge.url) })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, UNVERIFIABLE)
    await host.settle()
    expect(host.prompts).toHaveLength(0)
  })

  test("strict flags unverifiable claims and adds the provenance request", async () => {
    const host = createHost({ env: judgeEnv(judge.url, { RFE_STRICTNESS: "strict" }) })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, UNVERIFIABLE)
    await host.settle()
    expect(host.prompts).toHaveLength(1)
    expect(host.prompts[0]?.text).toContain("population of two million")
    expect(host.prompts[0]?.text).toContain("[no source supports it]")
    expect(host.prompts[0]?.text).toMatch(/cite the source it rests on.*own knowledge.*inference from context/s)
  })

  test("an explicit RFE_FLAG_VERDICTS list wins over strictness", async () => {
    const host = createHost({
      env: judgeEnv(judge.url, { RFE_STRICTNESS: "normal", RFE_FLAG_VERDICTS: "unverifiable" }),
    })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, `${UNVERIFIABLE} It has 7 bridges.`)
    await host.settle()
    expect(host.prompts).toHaveLength(1)
    expect(host.prompts[0]?.text).toContain("population")
    expect(host.prompts[0]?.text).not.toContain("7 bridges")
  })
})

describe("the cascade", () => {
  test("an always-unfaithful judge yields exactly RFE_NUDGE_DEPTH notes, then silence", async () => {
    const before = always.requests.length
    const host = createHost({
      env: judgeEnv(always.url),
      correct: (_note, round) => `Correction number ${round}: Fredville has exactly ${round + 10} bridges in total.`,
    })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, TWO_WRONG)
    await host.settle()
    expect(host.prompts).toHaveLength(2)
    // The third reply (answer to the second note) is not judged at all.
    const claims = always.requests.slice(before).map((request) => request.claim)
    expect(claims.some((claim) => claim.includes("12 bridges"))).toBe(false)
    expect(claims.some((claim) => claim.includes("11 bridges"))).toBe(true)
  })

  test("RFE_NUDGE_DEPTH=1 stops after one note", async () => {
    const host = createHost({
      env: judgeEnv(always.url, { RFE_NUDGE_DEPTH: "1" }),
      correct: (_note, round) => `Correction number ${round}: Fredville has exactly ${round + 10} bridges in total.`,
    })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, TWO_WRONG)
    await host.settle()
    expect(host.prompts).toHaveLength(1)
  })

  test("joining mid-session with no user message seen, the cascade is still bounded", async () => {
    const host = createHost({
      env: judgeEnv(always.url),
      correct: (_note, round) => `Correction number ${round}: Fredville has exactly ${round + 60} bridges in total.`,
    })
    const session = await host.createSession()
    await host.toolCall(session, "msg_before_plugin", "read", { filePath: FACTS.path }, { output: FACTS.text })
    await host.reply(session, "msg_before_plugin", TWO_WRONG)
    await host.settle()
    expect(host.prompts).toHaveLength(2)
  })

  test("a claim already in a note this turn never fires the cascade again", async () => {
    const host = createHost({
      env: judgeEnv(judge.url),
      correct: () => "It has 7 bridges.",
    })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, "Fredville is the capital city. It has 7 bridges.")
    await host.settle()
    expect(host.prompts).toHaveLength(1)
  })

  test("a fixed correction reply is silent", async () => {
    const host = createHost({
      env: judgeEnv(judge.url),
      correct: () => "Fredville has 3 bridges, and the national animal is the red fox.",
    })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, TWO_WRONG)
    await host.settle()
    expect(host.prompts).toHaveLength(1)
  })

  test("a real user message resets the depth; a synthetic one does not", async () => {
    let round = 0
    const host = createHost({
      env: judgeEnv(always.url),
      correct: () => `Corrected answer ${++round}: Fredville has ${round + 20} bridges in total.`,
    })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, TWO_WRONG)
    await host.settle()
    expect(host.prompts).toHaveLength(2)

    // A synthetic message from elsewhere (another plugin) does not open a new turn: still capped.
    const synthetic = await host.userMessage(session, "[other-plugin] continue", true)
    await host.reply(session, synthetic, "Fredville has 40 bridges and a large harbour.")
    await host.settle()
    expect(host.prompts).toHaveLength(2)

    // A real user message does.
    const real = await host.userMessage(session, "And the bridges?")
    await host.reply(session, real, "Fredville has 50 bridges and a large harbour.")
    await host.settle()
    expect(host.prompts).toHaveLength(4)
  })
})

describe("exactly once", () => {
  test("idle twice for one turn yields one judgment and one note", async () => {
    const before = judge.requests.length
    const host = createHost({ env: judgeEnv(judge.url), correct: () => undefined })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, TWO_WRONG)
    await host.idle(session)
    await host.idle(session)
    await host.settle()
    expect(host.prompts).toHaveLength(1)
    // Three claims; the two flagged ones each get a second opinion.
    expect(judge.requests.length - before).toBe(5)
  })

  test("two plugin instances in one process yield one note", async () => {
    const host = createHost({ env: judgeEnv(judge.url), instances: 2 })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, TWO_WRONG)
    await host.settle()
    expect(host.prompts).toHaveLength(1)
  })

  test("user messages re-emitted after idle (with summary) do not reset the turn", async () => {
    let round = 0
    const host = createHost({
      env: judgeEnv(always.url),
      correct: () => `Corrected answer ${++round}: Fredville has ${round + 30} bridges in total.`,
    })
    const session = await host.createSession()
    const { userID } = await host.readTurn(session, "Tell me about Freedonia", FACTS, TWO_WRONG)
    await host.settle()
    await host.event("message.updated", {
      sessionID: session,
      info: { id: userID, role: "user", sessionID: session, agent: "build", summary: { diffs: [] } },
    })
    await host.idle(session)
    await host.settle()
    expect(host.prompts).toHaveLength(2)
  })
})

describe("staleness and failures", () => {
  test("a verdict that arrives after a new real user message is dropped", async () => {
    const { rule, release } = heldJudge()
    await withJudge(rule, async (slow) => {
      const host = createHost({ env: judgeEnv(slow.url) })
      const session = await host.createSession()
      await host.readTurn(session, "Tell me about Freedonia", FACTS, TWO_WRONG)
      await host.userMessage(session, "Never mind, tell me about the weather instead")
      release()
      await host.settle()
      expect(host.prompts).toHaveLength(0)
      expect(host.plugin.counters.staleDrops).toBe(1)
    })
  })

  test("an injection that resolves with { error } is told under the reply, with one log line and no toast", async () => {
    const host = createHost({
      env: judgeEnv(judge.url),
      promptResult: async () => ({ error: { name: "UnknownError", data: { message: "boom" } } }),
    })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, TWO_WRONG)
    await host.settle()
    expect(host.prompts).toHaveLength(1)
    expect(host.toasts).toEqual([])
    expect(host.notices.map((notice) => notice.text.replace(/\n/g, " "))).toEqual([
      expect.stringMatching(
        /^Automatic check: .* The note to the agent failed; \/ragfaith lists 1 more(?: statement)?\.$/,
      ),
    ])
    const failures = host.logs.filter((line) => line.message.includes("could not inject"))
    expect(failures).toHaveLength(1)
    expect(host.plugin.counters.injectionFailures).toBe(1)
  })

  test("an injection that rejects is handled the same way", async () => {
    const host = createHost({
      env: judgeEnv(judge.url),
      promptResult: () => Promise.reject(new Error("socket hang up")),
    })
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, TWO_WRONG)
    await host.settle()
    expect(host.toasts).toEqual([])
    expect(host.notices).toHaveLength(1)
    expect(host.plugin.counters.injectionFailures).toBe(1)
  })
})
