// A contradiction must quote its source: the quote is verified and goes into the note.

import { describe, expect, test } from "bun:test"
import { anchorQuote, quotableTexts } from "../../src/judge/verdict.ts"
import { BRIDGES_CONTRADICTED, bridgesJudge } from "../support/fixtures.ts"
import type { JudgeReply } from "../support/judge.ts"
import { judgedTurn } from "../support/turns.ts"

const CONTRADICTION = BRIDGES_CONTRADICTED
/** Unfaithful for the bridge count (with the given quote), faithful otherwise. */
const bridges = bridgesJudge

describe("quoted evidence", () => {
  test("a verified quote goes into the note, so the agent sees the words it contradicted", async () => {
    const { host } = await judgedTurn(bridges())
    expect(host.prompts).toHaveLength(1)
    expect(host.prompts[0]?.text).toContain(
      '"It has 7 bridges." [source: facts.txt:1-2] The source says: "It has 3 bridges".',
    )
  })

  test("a quote that ends a sentence keeps one full stop, and the judge's reason reads as its own sentence", async () => {
    const { host } = await judgedTurn(
      bridges({ ...CONTRADICTION, quote: "It has 3 bridges.", reason: "the file says 3." }),
    )
    expect(host.prompts[0]?.text).toContain('The source says: "It has 3 bridges". Reason: the file says 3.\n')
  })

  test.each([
    ["an invented quote", { ...CONTRADICTION, quote: "Fredville has exactly three bridges" }],
    ["no quote at all", { verdict: "unfaithful", source: "S1", reason: "the file says 3" }],
    ["a quote too short to prove anything", { ...CONTRADICTION, quote: "3" }],
  ])("a contradiction with %s is not flagged: unverifiable, counted and logged", async (_name, flag) => {
    const { host } = await judgedTurn(bridges(flag as JudgeReply), { RFE_SECOND_OPINION: "0" })
    expect(host.prompts).toHaveLength(0)
    expect(host.plugin.counters.unanchored).toBe(1)
    const judged = host.logs.find((line) => line.message === "ragfaith: reply judged")
    expect(judged?.extra).toMatchObject({ unfaithful: 0, unverifiable: 1, unanchored: 1 })
  })

  test.each([
    ["case, spacing and markdown differ", "it has **3**   BRIDGES", "S1", "S1"],
    ["two pieces joined by an ellipsis, in order", "The capital ... has 3 bridges", "S1", "S1"],
    ["pieces out of order", "has 3 bridges ... The capital", "S1", undefined],
    ["the wrong source named: the one that holds it counts", "the red fox", "P", "S1"],
    ["the tool-call records are a source", "read facts.txt:1-2", "P", "P"],
    ["read output line numbers are not part of the text", "Fredville. It has 3", "S1", "S1"],
  ])("anchorQuote: %s", (_name, quote, named, expected) => {
    const premise = {
      id: "S1",
      tool: "read",
      origin: "machine" as const,
      ref: "facts.txt:1-2",
      path: "/project/facts.txt",
      text: "1: The capital of Freedonia is Fredville. It has 3 bridges.\n2: Freedonia's national animal is the red fox.",
    }
    expect(anchorQuote(quote, named, quotableTexts([premise], ["read facts.txt:1-2"]))).toBe(expected as never)
  })
})
