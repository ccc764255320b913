// The /ragfaith report says what to do: which setting to add with no judge, which variable a refused key came
// from, and what the last toasts said; its lines say each thing once.

import { describe, expect, test } from "bun:test"
import { BRIDGES_CONTRADICTED, bridgesJudge, FACTS, WRONG_REPLY } from "../support/fixtures.ts"
import { createHost, type HostOptions } from "../support/host.ts"
import { type JudgeCall, type JudgeReply, judgeEnv, withJudge } from "../support/judge.ts"

/** One read-and-answer turn, then `/ragfaith` with `args`; the report as one line. */
async function reportAfter(rule: (call: JudgeCall) => JudgeReply, opts: HostOptions = {}, args = "") {
  return withJudge(rule, async (judge) => {
    const env = opts.providers ? opts.env : judgeEnv(judge.url, opts.env)
    const host = createHost({ correct: () => undefined, providerURL: judge.url, ...opts, env })
    const session = await host.createSession()
    await host.readTurn(session, "How many bridges does Fredville have?", FACTS, WRONG_REPLY)
    await host.settle()
    await host.command(session, "ragfaith", args)
    const text = host.reports.at(-1)?.parts[0]?.text ?? ""
    return { host, text, flat: text.replace(/\n\s*/g, " ") }
  })
}

describe("/ragfaith says what to do", () => {
  test("no judge on the opencode route: the report names small_model and the judge variables", async () => {
    const { flat, host } = await reportAfter(bridgesJudge(), {
      providers: [{ id: "mock", source: "config", models: { scripted: {} } }],
      opencodeConfig: {},
      env: {},
    })
    expect(host.config.judge.route).toBe("opencode")
    expect(flat).toContain("Automatic check: the last reply was not judged")
    expect(flat).toContain("Not judged: 2 statements, as there was no judge to ask")
    expect(flat).toContain("Judge: none. Last failure at")
    expect(flat).toContain('"small_model": "provider/model"')
    expect(flat).toContain("RFE_JUDGE_API_KEY with RFE_JUDGE_BASE_URL and RFE_JUDGE_MAIN_MODEL")
    expect(flat).not.toContain("none asked yet")
    // the notice under the reply said it shorter: the report says it once, in full
    expect(flat).not.toContain("Notice at")
  })

  test("a judge key the settings lack: the report says nothing is judged, and which variable to set", async () => {
    await withJudge(bridgesJudge(), async () => {
      const host = createHost({ env: { RFE_JUDGE_PROVIDER: "openrouter" } })
      const session = await host.createSession()
      await host.readTurn(session, "How many bridges?", FACTS, WRONG_REPLY)
      await host.settle()
      await host.command(session, "ragfaith")
      const flat = (host.reports[0]?.parts[0]?.text ?? "").replace(/\n\s*/g, " ")
      expect(flat).toContain("no reply of this session has been judged yet. No judge key, nothing is judged: set")
      expect(flat).toContain("OPENROUTER_API_KEY or RFE_JUDGE_API_KEY")
      expect(flat).toContain("Judge: none, as the settings stand.")
    })
  })

  test.each([
    ["RFE_JUDGE_API_KEY", {}, "RFE_JUDGE_API_KEY"],
    ["the judge.apiKey option", { options: { judge: { apiKey: "sk-opt" } } }, "the judge.apiKey option"],
  ])("a refused key (401) from %s: the report names where the key came from", async (_, extra, named) => {
    const opts: HostOptions = extra
    const { flat } = await reportAfter(() => ({ status: 401 }), {
      ...opts,
      env: "options" in opts ? { RFE_JUDGE_API_KEY: "" } : {},
    })
    expect(flat).toContain(`the judge refused the key (HTTP 401): check ${named}.`)
    expect(flat).not.toContain("judge answered HTTP 401")
    // the notice under the reply said the same: it is not repeated under the judge line
    expect(flat).not.toMatch(/(Toast|Notice) at/)
  })

  test("what a notice said stays in the report after the transcript has moved on", async () => {
    const { flat } = await reportAfter(() => ({ raw: "I think this claim is probably fine." }))
    expect(flat).toMatch(
      /Notice at \d\d:\d\d: The judge judge-main answers without a verdict: check RFE_JUDGE_MAIN_MODEL\./,
    )
  })

  test("what a toast warned stays in the report, once, after the toast has gone", async () => {
    await withJudge(bridgesJudge(), async (judge) => {
      const host = createHost({ correct: () => undefined, env: judgeEnv(judge.url) })
      const session = await host.createSession()
      const user = await host.userMessage(session, "Install left-pad and use it")
      await host.toolCall(session, user, "bash", { command: "npm install left-pad" }, { output: "added 1 package" })
      await host.toolCall(session, user, "bash", { command: "npm install left-pad" }, { output: "added 1 package" })
      await host.settle()
      expect(host.toasts.some((toast) => toast.message.includes("left-pad"))).toBe(true)
      await host.command(session, "ragfaith")
      const lines = (host.reports[0]?.parts[0]?.text ?? "").split("\n")
      const told = lines.filter((line) => line.startsWith("Toast at "))
      expect(told).toHaveLength(1)
      expect(told[0]).toContain("left-pad")
    })
  })
})

describe("/ragfaith says each thing once", () => {
  test("the judge's reason is left out where the quote says it; kept where there is no quote", async () => {
    const { text } = await reportAfter(({ claim }) =>
      /7 bridges/.test(claim)
        ? BRIDGES_CONTRADICTED
        : { verdict: "unverifiable", reason: "the file does not call it a city" },
    )
    expect(text).toContain('which says "It has 3 bridges".')
    expect(text).not.toContain("the file says 3")
    expect(text.replace(/\n\s*/g, " ")).toContain("unverifiable: no source (the file does not call it a city).")
  })

  test("✓ lines of /ragfaith all say faithful and their source, never that the judge named none", async () => {
    const { text } = await reportAfter(
      ({ claim }) => (/7 bridges/.test(claim) ? BRIDGES_CONTRADICTED : { verdict: "faithful" }),
      {},
      "all",
    )
    const flat = text.replace(/\n\s*/g, " ")
    expect(flat).toContain('✓ "Fredville is the capital city of Freedonia." faithful.')
    expect(flat).not.toContain("named no source")
  })

  test("nothing judged: no token or cache figures in the footer", async () => {
    const { flat } = await reportAfter(() => ({ status: 401 }))
    expect(flat).toContain("This session: no statement judged, 0 notes sent.")
    expect(flat).not.toMatch(/tokens in|from the cache/)
  })

  test("something judged: the footer has the tokens and the cache", async () => {
    const { flat } = await reportAfter(bridgesJudge())
    expect(flat).toMatch(
      /This session: 2 statements judged, 1 note sent, [\d,]+ tokens in and [\d,]+ out, 0 from the cache/,
    )
  })
})
