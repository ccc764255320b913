// `/ragfaith`: the report of the last replies, answered with no model turn, and switching judging off and on.

import { describe, expect, test } from "bun:test"
import { LIMITS } from "../../src/base/bounds.ts"
import { REPORT_ITEMS } from "../../src/feedback/command.ts"
import { MESSAGE_WIDTH } from "../../src/feedback/note.ts"
import { BRIDGES_CONTRADICTED, bridgesJudge, distinctClaims, FACTS, WRONG_REPLY } from "../support/fixtures.ts"
import { createHost } from "../support/host.ts"
import { type JudgeCall, judgeEnv, withJudge } from "../support/judge.ts"
import { turn } from "../support/turns.ts"

const WRONG = WRONG_REPLY
const bridges = bridgesJudge()

describe("/ragfaith", () => {
  test("is registered as a command of opencode", async () => {
    const { host } = await turn(bridges)
    expect((host.opencodeConfig.command as Record<string, { description: string }>).ragfaith?.description).toBe(
      "what ragfaith checked; /ragfaith all|on|off|wrong [N]",
    )
  })

  test("answers with no model turn: the report goes in as a part the model never gets", async () => {
    const { host, session } = await turn(bridges)
    const answered = await host.command(session, "ragfaith")
    expect(answered.modelTurn).toBe(false)
    // opencode logs the throw that ends the command as an error: its text says plainly that it is none
    expect(String(answered.error)).toStartWith(
      "NotAnError: ragfaith answered /ragfaith itself, so opencode runs no model turn",
    )
    expect(host.reports).toHaveLength(1)
    const part = host.reports[0]?.parts[0]
    expect(part?.ignored).toBe(true)
    const report = part?.text ?? ""
    expect(report).toStartWith("Automatic check: the last reply, judged at")
    expect(report).toContain("by judge-main")
    const unwrapped = report.replace(/\n\s*/g, " ")
    expect(unwrapped).toContain('✗ "It has 7 bridges." unfaithful: facts.txt:1-2, which says "It has 3 bridges".')
    expect(report).toContain("A note asked the agent to correct what is marked ✗.")
    // the statement that holds up is folded into one line
    expect(report).toContain("✓ 1 more statement holds up (/ragfaith all lists every one).")
    expect(report).not.toContain('✓ "Fredville')
    expect(unwrapped).toContain(
      "This session: 2 statements judged, 1 note sent, 300 tokens in and 36 out, 0 from the cache.",
    )
    // the opencode log holds only counts: the report sends no one there
    expect(report).not.toMatch(/Details|opencode log/)
    for (const line of report.split("\n")) expect(line.length).toBeLessThanOrEqual(MESSAGE_WIDTH)
    // The report itself opened no user turn and was never judged.
    expect(host.plugin.sessions.get(session)?.lastUser?.text).toBe("How many bridges does Fredville have?")
  })

  test("/ragfaith all lists every statement, the ones that hold up too", async () => {
    const { host, session } = await turn(bridges)
    await host.command(session, "ragfaith", "all")
    const report = host.reports[0]?.parts[0]?.text ?? ""
    expect(report).toContain('✓ "Fredville is the capital city of Freedonia."')
    expect(report.indexOf("✗")).toBeLessThan(report.indexOf("✓"))
    expect(report).not.toContain("more statement holds up")
  })

  test("after a correction, the reply that drew the note comes first, then the correction", async () => {
    const { host, session } = await turn(bridges, { correct: () => "Fredville has 3 bridges." })
    expect(host.prompts).toHaveLength(1)
    await host.command(session, "ragfaith")
    const report = host.reports[0]?.parts[0]?.text ?? ""
    expect(report).toStartWith("Automatic check: the reply that drew the last note, judged at")
    const [flagged = "", latest = ""] = report.split("Automatic check: the reply after it")
    expect(flagged).toContain('✗ "It has 7 bridges."')
    expect(flagged).toContain("A note asked the agent to correct what is marked ✗.")
    expect(flagged.replace(/\n\s*/g, " ")).toContain('facts.txt:1-2, which says "It has 3 bridges"')
    expect(latest).toContain("Its 1 statement holds up.")
    expect(latest).not.toContain("✗")
    for (const line of report.split("\n")) expect(line.length).toBeLessThanOrEqual(MESSAGE_WIDTH)
  })

  test("a long reply: ✗ first, then ?, the ones that hold up folded into one line", async () => {
    const verdictOf = (claim: string) => Number(/number (\d+)/.exec(claim)?.[1] ?? 0) % 5
    const { host, session } = await turn(
      ({ claim }) =>
        verdictOf(claim) === 0
          ? { verdict: "unfaithful", source: "S1", quote: "It has 3 bridges", reason: "the file says 3" }
          : verdictOf(claim) === 1
            ? { verdict: "unverifiable", reason: "no source names it" }
            : { verdict: "faithful", source: "S1" },
      {},
      distinctClaims(21),
    )
    await host.command(session, "ragfaith")
    const report = host.reports[0]?.parts[0]?.text ?? ""
    const marks = report.split("\n").flatMap((line) => (/^[✗?✓] /.test(line) ? [line[0]] : []))
    expect(marks).toEqual([..."✗✗✗✗✗", ..."????", "✓"])
    expect(report).toContain("✓ 12 more statements hold up (/ragfaith all lists every one).")
    expect(report).toContain("Automatic check: the last reply, judged at")
  })

  test("more than REPORT_ITEMS flagged statements: the rest are counted, and /ragfaith all lists them", async () => {
    const { host, session } = await turn(
      () => ({ verdict: "unverifiable", reason: "no source names it" }),
      {},
      distinctClaims(REPORT_ITEMS + 3),
    )
    await host.command(session, "ragfaith")
    await host.command(session, "ragfaith", "all")
    const [short = "", all = ""] = host.reports.map((report) => report.parts[0]?.text ?? "")
    expect(short.split("\n").filter((line) => line.startsWith("? "))).toHaveLength(REPORT_ITEMS)
    expect(short).toContain("  and 3 more statements marked ✗ or ?.")
    expect(all.split("\n").filter((line) => line.startsWith("? "))).toHaveLength(REPORT_ITEMS + 3)
  })

  test("a statement that holds up with no source named reads as faithful, nothing more", async () => {
    const { host, session } = await turn(({ claim }) =>
      /7 bridges/.test(claim) ? BRIDGES_CONTRADICTED : { verdict: "faithful" },
    )
    await host.command(session, "ragfaith", "all")
    const report = (host.reports[0]?.parts[0]?.text ?? "").replace(/\n\s*/g, " ")
    expect(report).toContain('✓ "Fredville is the capital city of Freedonia." faithful. ')
    expect(report).not.toContain("no source")
  })

  test("a reply judged silent with no note before it is reported alone", async () => {
    const { host, session } = await turn(bridges, {}, "Fredville is the capital city of Freedonia.")
    await host.command(session, "ragfaith")
    const report = host.reports[0]?.parts[0]?.text ?? ""
    expect(report).not.toContain("drew the last note")
    expect(report).toContain("Its 1 statement holds up.")
  })

  test("a refused key: the report says the reply was not judged, and why", async () => {
    const { host, session } = await turn(() => ({ status: 401 }))
    await host.command(session, "ragfaith")
    const report = (host.reports[0]?.parts[0]?.text ?? "").replace(/\n\s*/g, " ")
    expect(report).toStartWith("Automatic check: the last reply was not judged")
    expect(report).toContain("Not judged: 2 statements the judge did not answer for.")
    expect(report).toContain("Last failure at")
    expect(report).toContain("HTTP 401")
    expect(report).not.toMatch(/needed a note|hold up|judged at/)
    expect(report).toContain("This session: no statement judged, 0 notes sent.")
  })

  test("says what was not judged and why, and how the judge is doing", async () => {
    const { host, session } = await turn(
      ({ claim }) => (/capital/.test(claim) ? { status: 503 } : bridges({ claim } as JudgeCall)),
      { env: { RFE_JUDGE_MAX_ATTEMPTS: "1", RFE_JUDGE_CONCURRENCY: "1" } },
      `${WRONG} Would you like more detail?`,
    )
    await host.command(session, "ragfaith")
    const report = host.reports[0]?.parts[0]?.text ?? ""
    expect(report.replace(/\n/g, " ")).toContain("Not judged: 2 statements the judge did not answer for.")
    // the sentence no request was spent on is named, with why
    expect(report).toContain('Not judged, as they state nothing to check:\n- a question: "Would you like more detail?"')
    expect(report).toContain("Last failure at")
    expect(report.replace(/\n/g, " ")).toContain("the judge fails (HTTP 503)")
  })

  test("a reply of more sentences stating nothing than are listed: the report counts them all", async () => {
    // 520 questions, one over the cap of listed sentences: each is kept apart by a different number.
    const questions = Array.from({ length: LIMITS.notClaimsPerReply + 20 }, (_, i) => `Shall I check item ${i}?`)
    const { host, session } = await turn(bridges, {}, `${WRONG} ${questions.join(" ")}`)
    await host.command(session, "ragfaith")
    const report = host.reports[0]?.parts[0]?.text ?? ""
    expect(report).toContain('Not judged, as they state nothing to check:\n- a question: "Shall I check item 0?"')
    expect(report).toContain(`- and ${questions.length - 6} more`)
  })

  test("before any reply is judged, the report says why none is", async () => {
    await withJudge(bridges, async (judge) => {
      const host = createHost({ env: judgeEnv(judge.url) })
      const session = await host.createSession()
      await host.reply(session, await host.userMessage(session, "Hello"), "Hello! How can I help?")
      await host.settle()
      await host.command(session, "ragfaith")
      expect((host.reports[0]?.parts[0]?.text ?? "").replace(/\n/g, " ")).toStartWith(
        "Automatic check: no reply of this session has been judged yet. A reply is judged once the agent has read a source or run a tool in this session.",
      )
    })
  })

  test("a verdict dropped because the user moved on shows in the report and the log", async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    await withJudge(
      async (call) => {
        await gate
        return bridges(call)
      },
      async (judge) => {
        const host = createHost({ env: judgeEnv(judge.url) })
        const session = await host.createSession()
        await host.readTurn(session, "How many bridges?", FACTS, WRONG)
        await host.userMessage(session, "Never mind")
        release()
        await host.settle()
        expect(host.prompts).toEqual([])
        const logged = host.logs.find((line) => line.message.includes("before the verdicts came"))
        expect(logged?.level).toBe("info")
        await host.command(session, "ragfaith")
        expect(host.reports[0]?.parts[0]?.text).toContain(
          "You sent a new message before the verdicts came, so they were dropped.",
        )
      },
    )
  })

  test("/ragfaith off stops judging this session, /ragfaith on starts it again", async () => {
    await withJudge(bridges, async (judge) => {
      const host = createHost({ env: judgeEnv(judge.url), correct: () => undefined })
      const session = await host.createSession()
      await host.userMessage(session, "Start")
      expect((await host.command(session, "ragfaith", "off")).modelTurn).toBe(false)
      expect(host.reports.at(-1)?.parts[0]?.text).toContain("off for this session")
      await host.readTurn(session, "How many bridges?", FACTS, WRONG)
      await host.settle()
      expect(judge.requests).toHaveLength(0)
      await host.command(session, "ragfaith", "on")
      await host.reply(session, await host.userMessage(session, "Again"), "Fredville has 9 bridges.")
      await host.settle()
      expect(judge.requests.length).toBeGreaterThan(0)
    })
  })

  test("before the first real message it answers with a toast, so opencode still titles the session", async () => {
    const host = createHost({ env: { RFE_JUDGE_API_KEY: "k" } })
    const session = await host.createSession()
    expect((await host.command(session, "ragfaith")).modelTurn).toBe(false)
    expect(host.reports).toEqual([])
    expect(host.toasts.at(-1)?.message).toBe("Nothing is judged in this session yet.")
  })

  test("other commands pass through untouched", async () => {
    const host = createHost({ env: { RFE_JUDGE_API_KEY: "k" } })
    const session = await host.createSession()
    expect((await host.command(session, "review")).modelTurn).toBe(true)
  })
})
