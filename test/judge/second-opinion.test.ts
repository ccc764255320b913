// A second judge model must agree before a contradiction is flagged, and its silence is handled.

import { describe, expect, test } from "bun:test"
import { secondOpinionModel } from "../../src/judge/models.ts"
import { bridgesJudge, FACTS, readOutput, WRONG_REPLY } from "../support/fixtures.ts"
import { createHost } from "../support/host.ts"
import { type JudgeCall, type JudgeReply, judgeEnv, withJudge } from "../support/judge.ts"
import { judgedTurn } from "../support/turns.ts"

const WRONG = WRONG_REPLY
/** Unfaithful for the bridge count (with the given quote), faithful otherwise. */
const bridges = bridgesJudge

describe("a second opinion", () => {
  test("the other judge model re-judges a contradiction; disagreement is not flagged", async () => {
    const { host, requests } = await judgedTurn((call) =>
      call.model === "judge-fallback" ? { verdict: "faithful", source: "S1" } : bridges()(call),
    )
    expect(host.prompts).toHaveLength(0)
    expect(requests.map((request) => [request.model, request.claim])).toEqual([
      ["judge-main", "Fredville is the capital city of Freedonia."],
      ["judge-main", "It has 7 bridges."],
      ["judge-fallback", "It has 7 bridges."],
    ])
    expect(host.plugin.counters).toMatchObject({ secondOpinions: 1, disagreements: 1 })
  })

  test("agreement flags, with one extra call per flagged claim and none for the rest", async () => {
    const { host, requests } = await judgedTurn(bridges())
    expect(host.prompts).toHaveLength(1)
    expect(requests.filter((request) => request.model === "judge-fallback").map((request) => request.claim)).toEqual([
      "It has 7 bridges.",
    ])
  })

  test("never the agent's own model: an agent on the main judge model gets no second opinion from it", async () => {
    const { host, requests } = await judgedTurn(bridges(), { RFE_ACTIVE_MODEL: "judge-main" })
    expect(requests.map((request) => request.model)).toEqual(["judge-fallback", "judge-fallback"])
    expect(host.prompts).toHaveLength(1)
    expect(host.plugin.counters.secondOpinions).toBe(0)
  })

  test.each([
    ["the second model is the first", "m", undefined, { mainModel: "m", fallbackModel: "m" }, undefined],
    ["the fallback answers after the main", "m", undefined, { mainModel: "m", fallbackModel: "f" }, "f"],
    ["the main answers after the fallback", "f", undefined, { mainModel: "m", fallbackModel: "f" }, "m"],
    ["the other is the agent's", "f", "provider/M", { mainModel: "m", fallbackModel: "f" }, undefined],
  ])("secondOpinionModel: %s", (_name, first, active, judge, expected) => {
    expect(secondOpinionModel(first, active, judge)).toBe(expected as never)
  })

  test("RFE_SECOND_OPINION=0 flags on the first judge alone", async () => {
    const { host, requests } = await judgedTurn(bridges(), { RFE_SECOND_OPINION: "0" })
    expect(requests.every((request) => request.model === "judge-main")).toBe(true)
    expect(host.prompts).toHaveLength(1)
  })

  test("both verdicts are cached: the same turn again costs no request", async () => {
    await withJudge(bridges(), async (judge) => {
      const host = createHost({ env: judgeEnv(judge.url), correct: () => undefined })
      const session = await host.createSession()
      await host.readTurn(session, "How many bridges?", FACTS, WRONG)
      await host.settle()
      const asked = judge.requests.length
      expect(asked).toBe(3)
      const again = await host.userMessage(session, "How many bridges?")
      await host.reply(session, again, WRONG)
      await host.settle()
      expect(judge.requests.length).toBe(asked)
      expect(host.plugin.counters.cacheHits).toBe(3)
    })
  })
})

describe("a second opinion that does not come", () => {
  /** The fallback model's answer to the flagged claim; the main judge flags the bridge count with a true quote. */
  const secondSays = (answer: JudgeReply) => (call: JudgeCall) =>
    call.model === "judge-fallback" ? answer : bridges()(call)

  /** The /ragfaith report of the session's last reply. */
  async function reportOf(host: ReturnType<typeof createHost>) {
    const session = [...host.plugin.sessions.keys()][0] ?? ""
    await host.command(session, "ragfaith")
    return host.reports.at(-1)?.parts[0]?.text.replace(/\s+/g, " ") ?? ""
  }

  test.each([
    ["an answer that is no JSON", { raw: "I think the claim is probably wrong." }],
    ["503 on every retry", { status: 503 }],
    ["a body that is no chat completion", { garbage: true }],
  ])("%s: the verified flag stands, and the report says the second judge did not answer", async (_name, answer) => {
    const { host } = await judgedTurn(secondSays(answer as JudgeReply))
    expect(host.prompts).toHaveLength(1)
    expect(host.prompts[0]?.text).toContain('"It has 7 bridges."')
    expect(host.plugin.counters).toMatchObject({ secondOpinions: 1, secondSilent: 1, disagreements: 0 })
    const judged = host.logs.find((line) => line.message === "ragfaith: reply judged")
    expect(judged?.extra).toMatchObject({ unfaithful: 1, disagreed: 0, secondSilent: 1 })
    const report = await reportOf(host)
    expect(report).toContain("The second judge did not answer")
    expect(report).not.toContain("disagreed")
    // The second model's failure is not the main judge's outage.
    expect(host.toasts.map((toast) => toast.message).join("\n")).not.toContain("The judge fails")
  })

  test.each([
    ["faithful", { verdict: "faithful", source: "S1" }],
    ["unverifiable", { verdict: "unverifiable", source: "S1" }],
  ])("a real %s verdict of the second judge demotes the flag", async (_name, answer) => {
    const { host } = await judgedTurn(secondSays(answer as JudgeReply))
    expect(host.prompts).toHaveLength(0)
    expect(host.plugin.counters).toMatchObject({ disagreements: 1, secondSilent: 0 })
    expect(await reportOf(host)).toContain("Not flagged: a second judge disagreed.")
  })

  test("a second judge's contradiction whose quote stands in no source is no agreement", async () => {
    const { host } = await judgedTurn(secondSays({ verdict: "unfaithful", source: "S1", quote: "three bridges only" }))
    expect(host.prompts).toHaveLength(0)
    expect(host.plugin.counters).toMatchObject({ disagreements: 1, secondSilent: 0 })
  })

  test("after three silences in a row the second model is not asked again in the session, and that is told once", async () => {
    await withJudge(secondSays({ status: 503 }), async (judge) => {
      const host = createHost({ env: judgeEnv(judge.url), correct: () => undefined })
      const session = await host.createSession()
      const fallbackCalls: number[] = []
      for (let turn = 0; turn < 5; turn++) {
        const user = await host.userMessage(session, `How many bridges? (${turn})`)
        await host.toolCall(session, user, "read", { filePath: FACTS.path }, readOutput(FACTS.path, FACTS.text))
        await host.reply(session, user, `It has 7 bridges. Turn ${turn} asks again about the bridges.`)
        await host.settle()
        fallbackCalls.push(judge.requests.filter((request) => request.model === "judge-fallback").length)
      }
      expect(fallbackCalls[0]).toBeGreaterThan(0)
      expect(fallbackCalls[2]).toBeGreaterThan(fallbackCalls[1] ?? 0)
      expect(fallbackCalls[4]).toBe(fallbackCalls[2] as number)
      expect(host.plugin.counters).toMatchObject({ secondOpinions: 3, secondSilent: 5 })
      const told = host.toasts.filter((toast) => toast.message.includes("does not answer"))
      expect(told).toHaveLength(1)
      expect(told[0]?.message).toContain("judge-fallback")
      expect(host.prompts.length).toBeGreaterThanOrEqual(1)
    })
  })
})
