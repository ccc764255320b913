// Bounds on the watched host of test/support/faults.ts: unbounded input keeps every map and list at its limit.

import { afterAll, describe, expect, test } from "bun:test"
import { LIMITS, trimOldest } from "../../src/base/bounds.ts"
import { bridgeRule, expectHealthy, expectNoRejections, VERBATIM, WRONG, watchedHost } from "../support/faults.ts"
import { distinctClaims, FACTS } from "../support/fixtures.ts"
import { judgeEnv, startJudge, withJudge } from "../support/judge.ts"

const judge = startJudge(({ claim }) => bridgeRule(claim))
afterAll(() => judge.stop())

// ── 5. bounds ────────────────────────────────────────────────────────────────────────────────────────────

describe("bounds", () => {
  test.each([
    ["a list", () => ["a", "b", "c", "d"], (c: unknown) => [...(c as string[])]],
    ["a set", () => new Set(["a", "b", "c", "d"]), (c: unknown) => [...(c as Set<string>)]],
    [
      "a map",
      () =>
        new Map([
          ["a", 1],
          ["b", 2],
          ["c", 3],
          ["d", 4],
        ]),
      (c: unknown) => [...(c as Map<string, number>).keys()],
    ],
  ])("one eviction rule for %s: the oldest leave first", (_name, make, keys) => {
    const collection = make()
    trimOldest(collection, 2)
    expect(keys(collection)).toEqual(["c", "d"])
    trimOldest(collection, 5)
    expect(keys(collection)).toEqual(["c", "d"])
  })

  test("1,000 sessions keep the session map at its limit, and the newest session still works", async () => {
    const host = watchedHost({ env: judgeEnv(judge.url) })
    for (let i = 0; i < 1_000; i++) {
      const session = await host.createSession()
      await host.readTurn(session, "Tell me about Freedonia", FACTS, VERBATIM)
    }
    await host.settle()
    expect(host.plugin.sessions.size).toBe(LIMITS.sessions)
    expect(host.plugin.counters).toMatchObject({ gateHits: 1_000, requests: 0 })
    for (const state of host.plugin.sessions.values()) {
      expect(state.premiseChars).toBeLessThanOrEqual(host.config.premiseCap)
      expect(state.userMessages.size).toBeLessThanOrEqual(LIMITS.userMessagesPerSession)
    }
    const session = await host.createSession()
    await host.readTurn(session, "Tell me about Freedonia", FACTS, WRONG)
    await host.settle()
    expect(host.prompts).toHaveLength(1)
    expect(host.plugin.sessions.size).toBe(LIMITS.sessions)
    expectHealthy(host, { bulk: true })
  })

  test("10,000 tool calls in one session: premises, logs, refs, packages and toasts stay bounded", async () => {
    const host = watchedHost({ env: judgeEnv(judge.url, { RFE_EVIDENCE_SCOPE: "all" }) })
    const session = await host.createSession()
    const userID = await host.userMessage(session, "Work hard")
    const page = (i: number) => `Section ${i}: Fredville has 3 bridges. ${"Lorem ipsum dolor sit amet. ".repeat(12)}`
    for (let i = 0; i < 10_000; i++) {
      const callID = `call_${i}`
      let tool: string
      let args: Record<string, unknown>
      switch (i % 4) {
        case 0:
          ;[tool, args] = ["read", { filePath: `/project/src/file${i}.ts` }]
          break
        case 1:
          ;[tool, args] = ["webfetch", { url: `https://docs.example.test/page/${i}` }]
          break
        case 2:
          // A new, undocumented package every time: doc-pull warnings galore.
          ;[tool, args] = ["bash", { command: `npm install undocumented-pkg-${i}` }]
          break
        default:
          ;[tool, args] = ["grep", { pattern: `needle${i}`, path: "/project" }]
      }
      await host.call("tool.execute.before", { tool, sessionID: session, callID }, { args })
      await host.call(
        "tool.execute.after",
        { tool, sessionID: session, callID, args },
        { title: tool, output: page(i), metadata: {} },
      )
    }
    const state = host.plugin.sessions.get(session)
    if (!state) throw new Error("no session state")
    const chars = state.premises.reduce((sum, premise) => sum + premise.text.length, 0)
    expect(state.premiseChars).toBe(chars)
    expect(chars).toBeLessThanOrEqual(host.config.premiseCap)
    expect(state.records).toHaveLength(LIMITS.toolRecords)
    expect(state.webRefs.length).toBeLessThanOrEqual(LIMITS.webRefs)
    expect(state.warnedPackages.size).toBeLessThanOrEqual(LIMITS.warnedPackages)
    expect(state.toastKeys.size).toBeLessThanOrEqual(LIMITS.toastsPerSession)
    expect(host.toasts).toHaveLength(LIMITS.toastsPerSession)

    // The judge still sees a bounded context: the premise cap, the process log and the fixed wrapping.
    const before = judge.requests.length
    await host.reply(session, userID, WRONG)
    await host.settle()
    const raw = judge.requests.slice(before).map((request) => request.body.messages[1]?.content ?? "")
    expect(raw.length).toBeGreaterThan(0)
    for (const content of raw) {
      expect(content.length).toBeLessThan(host.config.premiseCap + LIMITS.toolRecords * 210 + 4_000)
    }
    expect(host.prompts).toHaveLength(1)
    expectHealthy(host, { bulk: true })
  })

  test("20 doc-pull warnings for the same package in a session make one toast and one log line", async () => {
    const host = watchedHost({ env: judgeEnv(judge.url) })
    const session = await host.createSession()
    const userID = await host.userMessage(session, "Install it")
    for (let i = 0; i < 20; i++) {
      await host.toolCall(session, userID, "bash", { command: "npm install left-pad@1" }, { output: "ok" })
    }
    expect(host.toasts.map((toast) => toast.message)).toEqual([
      "No docs for left-pad were read in this session: the agent may be guessing its API.",
    ])
    expect(host.logs.filter((line) => line.message.includes("doc-pull"))).toHaveLength(1)
    expectHealthy(host)
  })

  test("20 failing judge calls, in one reply or in 20 replies, make one toast", async () => {
    await withJudge(
      () => ({ status: 500 }),
      async (down) => {
        const host = watchedHost({ env: judgeEnv(down.url, { RFE_JUDGE_MAX_ATTEMPTS: "1" }) })
        const session = await host.createSession()
        const twenty = distinctClaims(20)
        await host.readTurn(session, "Tell me about Freedonia", FACTS, twenty)
        await host.settle()
        for (let i = 0; i < 20; i++) {
          const user = await host.userMessage(session, `Again ${i}`)
          await host.reply(session, user, `Bridge number ${i} is the longest one in the city.`)
        }
        await host.settle()
        expect(down.requests.length).toBeGreaterThanOrEqual(20)
        expect(host.plugin.counters.callFailures).toBeGreaterThanOrEqual(21)
        expect(host.notices).toHaveLength(1)
        expect(host.toasts).toEqual([])
        expectHealthy(host)
      },
    )
  })
})

expectNoRejections()
