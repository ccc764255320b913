// The notice a person sees in the transcript between a wrong reply and its correction.

import { describe, expect, test } from "bun:test"
import { contrastOf } from "../../src/feedback/contrast.ts"
import { buildNotice, MESSAGE_WIDTH, NOTE_TAG } from "../../src/feedback/note.ts"
import type { FlaggedClaim } from "../../src/state/shapes.ts"
import { bridgesJudge, FACTS, WRONG_REPLY } from "../support/fixtures.ts"
import { createHost } from "../support/host.ts"
import { judgeEnv, withJudge } from "../support/judge.ts"
import { turn } from "../support/turns.ts"

const WRONG = WRONG_REPLY
const bridges = bridgesJudge()

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
