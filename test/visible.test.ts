/**
 * What a person sees of the check: the notice between a wrong reply and its correction, `/ragfaith` answered
 * with no model turn, and toasts written for people (what happened, what to do, two lines at most).
 */

import { describe, expect, test } from "bun:test"
import { REPORT_ITEMS } from "../src/feedback/command.ts"
import { contrastOf } from "../src/feedback/contrast.ts"
import { buildNotice, MESSAGE_WIDTH, NOTE_TAG, NOTICE_READ_MS } from "../src/feedback/note.ts"
import { createToastHold, HOLD_LIMIT_MS, toastText } from "../src/feedback/notifier.ts"
import type { FlaggedClaim } from "../src/state/shapes.ts"
import {
  BRIDGES_CONTRADICTED,
  bridgesJudge,
  distinctClaims,
  FACTS,
  toastLines,
  WRONG_REPLY,
} from "./support/fixtures.ts"
import { createHost, type HostOptions } from "./support/host.ts"
import { type JudgeCall, type JudgeReply, judgeEnv, withJudge } from "./support/judge.ts"

const WRONG = WRONG_REPLY
const bridges = bridgesJudge()

async function turn(rule: (call: JudgeCall) => JudgeReply, opts: HostOptions = {}, reply = WRONG) {
  return withJudge(rule, async (judge) => {
    const host = createHost({ correct: () => undefined, ...opts, env: judgeEnv(judge.url, opts.env) })
    const session = await host.createSession()
    await host.readTurn(session, "How many bridges does Fredville have?", FACTS, reply)
    await host.settle()
    return { host, session }
  })
}

describe("the notice in the transcript", () => {
  test("a note carries the agent's instruction first and, beside it, a short notice the user sees", async () => {
    const { host } = await turn(bridges)
    expect(host.prompts).toHaveLength(1)
    const note = host.prompts[0]
    expect(note?.synthetic).toBe(true)
    expect(note?.text.startsWith(NOTE_TAG)).toBe(true)
    expect(note?.text).toContain("The user sees a short notice that this check ran; it needs no answer.")
    expect(note?.marker).toBe(
      'Automatic check: "It has 7 bridges." conflicts with facts.txt:1-2, which\nsays "3 bridges", not "7 bridges". Asking the agent to correct it.',
    )
  })

  test("several flagged statements: the notice names the first, counts the rest and points to /ragfaith", async () => {
    const { host } = await turn(
      ({ claim }) =>
        /7 bridges|blue whale/.test(claim)
          ? { verdict: "unfaithful", source: "S1", quote: "It has 3 bridges", reason: "wrong" }
          : { verdict: "faithful", source: "S1" },
      {},
      `${WRONG} Its national animal is the blue whale.`,
    )
    expect(host.prompts[0]?.marker).toBe(
      'Automatic check: "It has 7 bridges." conflicts with facts.txt:1-2, which\nsays "3 bridges". Asking the agent to fix it and 1 more; see /ragfaith.',
    )
  })

  const flag = (claim: string, rest: Partial<FlaggedClaim> = {}): FlaggedClaim => ({
    claim,
    verdict: "unfaithful",
    source: "facts.txt:1-4",
    quote: "Freedonia has 3 bridges over the river Zeppo.",
    reason: "the file says 3",
    via: "judge",
    ...rest,
  })
  const LONG = "The bridge over the Zeppo at Marxburg, built of grey stone by the river guild in 1802, ".repeat(3)

  test.each([
    ["one short statement", [flag("Seven bridges span the Zeppo river in Freedonia.")]],
    ["one long statement", [flag(LONG)]],
    ["a long quote", [flag("It has 7 bridges.", { quote: LONG })]],
    ["a long URL as the source", [flag("It has 7 bridges.", { source: `https://example.com/${"a".repeat(90)}` })]],
    ["five statements", Array.from({ length: 5 }, (_, i) => flag(`${LONG} number ${i}.`))],
    [
      "1,200 statements of mixed verdicts",
      Array.from({ length: 1200 }, (_, i) => flag(LONG, i % 2 ? {} : { verdict: "unverifiable" })),
    ],
    ["one statement no source backs", [flag(LONG, { verdict: "unverifiable", source: undefined, quote: undefined })]],
  ])("%s: two lines at most, none wider than a user message at 80 columns", (_, items) => {
    const lines = buildNotice(items).split("\n")
    expect(lines.length).toBeLessThanOrEqual(2)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(MESSAGE_WIDTH)
    expect(lines[0]).toStartWith("Automatic check: ")
    // what is wrong in the first contradicted statement is named; without a quote, the statement, shortened at a word
    const first = items.find((item) => item.verdict === "unfaithful") ?? (items[0] as FlaggedClaim)
    const wrong = first.verdict === "unfaithful" ? contrastOf(first.claim, first.quote)?.claimPart : undefined
    expect(lines.join(" ")).toContain(wrong ? `"${wrong}` : `"${first.claim.slice(0, 18)}`)
    if (items.length > 1) expect(lines.join(" ")).toContain(`and ${(items.length - 1).toLocaleString("en")} more`)
    if (items.length > 1) expect(lines.join(" ")).toMatch(/ \/ragfaith\b/)
  })

  test("a statement no source backs (strict mode) asks for a source, not a correction", () => {
    const notice = buildNotice([
      flag("Freedonia joined the league in 1921.", { verdict: "unverifiable", source: undefined }),
    ])
    expect(notice.replace("\n", " ")).toBe(
      'Automatic check: no source backs "Freedonia joined the league in 1921.". Asking the agent to cite one or say where it comes from.',
    )
  })

  test("the notice, echoed back as user text, opens no user turn: the cascade stays bounded", async () => {
    await withJudge(
      () => ({ verdict: "unfaithful", source: "S1", quote: "It has 3 bridges", reason: "wrong" }),
      async (judge) => {
        let round = 0
        const host = createHost({ env: judgeEnv(judge.url), correct: () => `Fredville has ${++round + 20} bridges.` })
        const session = await host.createSession()
        await host.readTurn(session, "How many bridges?", FACTS, WRONG)
        await host.settle()
        expect(host.prompts).toHaveLength(2)
        const state = host.plugin.sessions.get(session)
        expect(state?.lastUser?.text).toBe("How many bridges?")
        expect(state?.noteMessages.size).toBe(2)
      },
    )
  })
})

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

describe("toasts for people", () => {
  test("titled once, never 'ragfaith:' again in the text, two lines of opencode's toast box at most", async () => {
    const { host } = await turn(() => ({ status: 401 }))
    expect(host.toasts.length).toBeGreaterThan(0)
    for (const toast of host.toasts) {
      expect(toast.title).toBe("ragfaith")
      expect(toast.message).not.toMatch(/^ragfaith/i)
      expect(toastLines(toast.message)).toBeLessThanOrEqual(2)
    }
    expect(host.toasts[0]?.message).toBe(
      "The judge refused the key (HTTP 401): check RFE_JUDGE_API_KEY. Replies go unchecked.",
    )
  })

  test("a judge that stays broken is told again after ten minutes, not only once", async () => {
    let clock = Date.parse("2026-12-01T14:02:00")
    await withJudge(
      () => ({ status: 503 }),
      async (judge) => {
        const host = createHost({
          env: judgeEnv(judge.url, { RFE_JUDGE_MAX_ATTEMPTS: "1" }),
          deps: { now: () => clock },
        })
        const session = await host.createSession()
        await host.readTurn(session, "How many bridges?", FACTS, WRONG)
        await host.settle()
        clock += 5 * 60_000
        await host.reply(session, await host.userMessage(session, "Again"), "Fredville has 8 bridges.")
        await host.settle()
        expect(host.toasts).toHaveLength(1)
        clock += 6 * 60_000
        await host.reply(session, await host.userMessage(session, "Again"), "Fredville has 9 bridges.")
        await host.settle()
        expect(host.toasts.map((toast) => toast.message)).toEqual([
          "The judge fails (HTTP 503) since 14:02; replies go unchecked until it answers.",
          "The judge fails (HTTP 503) since 14:02; replies go unchecked until it answers.",
        ])
      },
    )
  })

  test("with notes off, the toast names the flagged statement and where the details are", async () => {
    const { host } = await turn(bridges, { env: { RFE_NUDGE_DEPTH: "0" } })
    expect(host.prompts).toEqual([])
    expect(host.toasts.map((toast) => toast.message)).toEqual([
      '1 statement looks unsupported: "It has 7 bridges." Notes are off; see /ragfaith.',
    ])
  })

  test("a long flagged statement is shortened so the toast keeps its two lines and its pointer to /ragfaith", async () => {
    const long = `It has 7 bridges, ${"each of them built of grey stone by the river guild over many long years, ".repeat(3)}`
    const { host } = await turn(
      bridges,
      { env: { RFE_NUDGE_DEPTH: "0" } },
      `Fredville is the capital city of Freedonia. ${long}`,
    )
    const [toast] = host.toasts
    expect(toast?.message).toStartWith('1 statement looks unsupported: "It has 7 bridges, each')
    expect(toast?.message).toEndWith("Notes are off; see /ragfaith.")
    expect(toastLines(toast?.message ?? "")).toBe(2)
  })

  test("in `opencode run`, stderr names the flagged statement and where the log is", async () => {
    await withJudge(bridges, async (judge) => {
      const host = createHost({ env: judgeEnv(judge.url), mode: "run" })
      const session = await host.createSession()
      const userID = await host.userMessage(session, "How many bridges?")
      await host.toolCall(session, userID, "read", { filePath: FACTS.path }, { output: FACTS.text })
      await host.reply(session, userID, WRONG, { idle: false })
      await host.event("session.status", { sessionID: session, status: { type: "idle" } })
      await host.hooks.dispose()
      expect(host.stderr.join("")).toContain(
        "  - It has 7 bridges. [unfaithful]\n  details: the opencode log (~/.local/share/opencode/log)",
      )
    })
  })

  /** A wrong reply judged by one of the user's models: the note is out, its correction turn as `opts` answers it. */
  async function noteOut(providerURL: string, opts: Pick<HostOptions, "promptResult" | "deps">) {
    const host = createHost({
      providers: [{ id: "mock", source: "config", models: { scripted: {}, title: {}, judge: {} } }],
      providerURL,
      opencodeConfig: { small_model: "mock/title" },
      ...opts,
    })
    const session = await host.createSession()
    await host.readTurn(session, "How many bridges?", FACTS, WRONG)
    for (let i = 0; i < 500 && host.prompts.length === 0; i++) await Bun.sleep(2)
    await Bun.sleep(20)
    return host
  }

  test("toasts wait while a reply is judged and its note is answered: nothing covers the notice as it appears", async () => {
    let answer: () => void = () => {}
    const answered = new Promise<void>((resolve) => {
      answer = resolve
    })
    await withJudge(bridges, async (provider) => {
      const host = await noteOut(provider.url, {
        promptResult: async () => {
          await answered
          return {}
        },
      })
      // the note is out and its correction not yet answered: the advice of which model judges waits
      expect(host.prompts).toHaveLength(1)
      expect(host.toasts).toEqual([])
      answer()
      await host.settle()
      await Bun.sleep(10)
      expect(host.sleeps).toContain(NOTICE_READ_MS)
      expect(host.toasts.map((toast) => toast.message)).toEqual([
        "The judge is mock/title, one of your models; RFE_JUDGE_MAIN_MODEL picks another",
      ])
    })
  })

  test("held toasts come together once released, the warning last so it is the one that stays", () => {
    const shown: string[] = []
    const hold = createToastHold((message) => shown.push(message), { now: () => 0, sleep: async () => {} })
    const release = hold.hold()
    const second = hold.hold()
    hold.toast("Warning", "warning")
    hold.toast("Advice", "info")
    hold.toast("Warning", "warning")
    release()
    release()
    expect(shown).toEqual([])
    second()
    expect(shown).toEqual(["Advice", "Warning"])
    hold.toast("Later", "info")
    expect(shown.at(-1)).toBe("Later")
  })

  test("no hold keeps a toast back past its limit: a correction that never ends silences nothing for good", async () => {
    let now = 1_000
    const timers: Array<{ ms: number; fire: () => void }> = []
    const clock = {
      now: () => now,
      sleep: (ms: number) => new Promise<void>((resolve) => timers.push({ ms, fire: resolve })),
    }
    const shown: string[] = []
    const hold = createToastHold((message) => shown.push(message), clock)
    hold.hold() // never released
    hold.toast("Judge unreachable", "warning")
    expect(shown).toEqual([])
    expect(timers.map((timer) => timer.ms)).toEqual([HOLD_LIMIT_MS])
    // the timer firing early (or a clock that has not moved) changes nothing
    timers[0]?.fire()
    await Bun.sleep(0)
    expect(shown).toEqual([])
    now += HOLD_LIMIT_MS
    hold.toast("Second", "warning")
    expect(shown).toEqual(["Judge unreachable", "Second"])
    // a hold begun while toasts wait sets its own timer, so it cannot strand them either
    const later = hold.hold()
    hold.toast("Third", "warning")
    hold.hold()
    expect(timers.length).toBe(3)
    later()
    expect(shown).toEqual(["Judge unreachable", "Second"])
    now += HOLD_LIMIT_MS
    for (const timer of timers.splice(0)) timer.fire()
    await Bun.sleep(0)
    expect(shown).toEqual(["Judge unreachable", "Second", "Third"])
  })

  test("a correction turn that hangs holds the toasts it would cover only up to the limit", async () => {
    let offset = 0
    const limits: Array<() => void> = []
    await withJudge(bridges, async (provider) => {
      const host = await noteOut(provider.url, {
        promptResult: () => new Promise(() => {}),
        deps: {
          now: () => Date.now() + offset,
          sleep: (ms) =>
            ms === HOLD_LIMIT_MS ? new Promise<void>((resolve) => limits.push(resolve)) : Promise.resolve(),
        },
      })
      expect(host.prompts).toHaveLength(1)
      expect(host.toasts).toEqual([])
      expect(limits.length).toBeGreaterThan(0)
      offset = HOLD_LIMIT_MS
      for (const fire of limits.splice(0)) fire()
      await Bun.sleep(10)
      expect(host.toasts.map((toast) => toast.message)).toEqual([
        "The judge is mock/title, one of your models; RFE_JUDGE_MAIN_MODEL picks another",
      ])
    })
  })

  test("with notes off, the flagged toast waits until the reply has been read", async () => {
    const { host } = await turn(bridges, { env: { RFE_NUDGE_DEPTH: "0" } })
    expect(host.sleeps).toContain(NOTICE_READ_MS)
    expect(host.toasts).toHaveLength(1)
  })

  test("the route tells once which model judges, as advice, in two whole lines", async () => {
    const host = createHost({
      providers: [{ id: "mock", source: "config", models: { scripted: {}, title: {} } }],
      opencodeConfig: { small_model: "mock/title" },
    })
    const session = await host.createSession()
    await host.readTurn(session, "How many bridges?", FACTS, "Fredville has many bridges and a harbour.")
    await host.settle()
    const told = host.toasts.filter((toast) => toast.message.startsWith("The judge is mock/title"))
    expect(told.map((toast) => toast.variant)).toEqual(["info"])
    expect(told[0]?.message).toBe("The judge is mock/title, one of your models; RFE_JUDGE_MAIN_MODEL picks another")
    // whole at 80 columns too (opencode's toast box is 54 characters wide there as at 120), even for a long model id
    expect(
      toastText(told[0]?.message.replace("mock/title", "openrouter/anthropic/claude-haiku-4.5") ?? ""),
    ).not.toContain("…")
  })
})
