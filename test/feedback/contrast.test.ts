// The notice names what is wrong: the part of the first contradicted statement the judge's quote does not bear out.

import { describe, expect, test } from "bun:test"
import { contrastOf } from "../../src/feedback/contrast.ts"
import { buildNotice, MESSAGE_WIDTH } from "../../src/feedback/note.ts"
import type { FlaggedClaim } from "../../src/state/shapes.ts"

describe("the wrong part of a contradicted statement", () => {
  test.each([
    // a number against the source's number, beside a word both share
    [
      "Seven bridges span the Zeppo river.",
      "Freedonia has 3 bridges over the river Zeppo.",
      "Seven bridges",
      "3 bridges",
    ],
    ["It has 7 bridges.", "It has 3 bridges", "7 bridges", "3 bridges"],
    // a name against the source's name
    ["The capital is Fredville.", "The capital of Freedonia is Marxburg.", "Fredville", "Marxburg"],
    // a year, where the shared word stands twice in the quote
    ["The bridge was rebuilt in 1950.", "The bridge was built in 1802 and rebuilt in 1921.", "1950", "1921"],
    // a version and a percentage
    ["The API accepts version 3.2 only.", "The API accepts version 4.1 only.", "version 3.2", "version 4.1"],
    ["Turnout was 64% in the last vote.", "Turnout was 71% in the last vote.", "64%", "71%"],
    // German: a name, a year, a number word against digits
    ["Die Hauptstadt ist Fredstadt.", "Die Hauptstadt von Freedonia ist Marxburg.", "Fredstadt", "Marxburg"],
    ["Das Gesetz gilt seit 2019 für alle.", "Das Gesetz gilt seit 2021 für alle.", "seit 2019", "seit 2021"],
    ["Über den Zeppo führen sieben Brücken.", "Über den Zeppo führen 3 Brücken.", "sieben Brücken", "3 Brücken"],
  ])("%s / %s", (claim, quote, claimPart, sourcePart) => {
    expect(contrastOf(claim, quote)).toEqual({ claimPart, sourcePart })
  })

  test("a negation the source lacks is the wrong part, with no words of the source in its place", () => {
    expect(contrastOf("Freedonia is not a member of the league.", "Freedonia is a member of the league.")).toEqual({
      claimPart: "not",
      sourcePart: undefined,
    })
    expect(contrastOf("Freedonia ist kein Mitglied der Liga.", "Freedonia ist Mitglied der Liga.")?.claimPart).toBe(
      "kein",
    )
  })

  test("numbers come before names, names before other words", () => {
    expect(contrastOf("Groucho built 9 bridges quickly.", "Chico built 4 bridges.")?.claimPart).toBe("9 bridges")
    expect(contrastOf("Groucho built the bridges quickly.", "Chico built the bridges.")).toEqual({
      claimPart: "Groucho built",
      sourcePart: "Chico built",
    })
  })

  test("no quote, or every content word of the claim in it: no wrong part to name", () => {
    expect(contrastOf("It has 7 bridges.", undefined)).toBeUndefined()
    expect(
      contrastOf("The river Zeppo has 3 bridges.", "Freedonia has 3 bridges over the river Zeppo."),
    ).toBeUndefined()
  })
})

const flag = (claim: string, quote: string | undefined, rest: Partial<FlaggedClaim> = {}): FlaggedClaim => ({
  claim,
  verdict: "unfaithful",
  source: "notes.txt:1-15",
  quote,
  reason: "the notes say otherwise",
  via: "judge",
  ...rest,
})

describe("the notice", () => {
  test("one statement: the statement and the source's words for its wrong part, in two lines", () => {
    expect(buildNotice([flag("Fredville has 7 bridges.", "Fredville has 3 bridges")])).toBe(
      'Automatic check: "Fredville has 7 bridges." conflicts with\nnotes.txt:1-15, which says "3 bridges". Asking the agent to correct it.',
    )
  })

  test("several statements: the first one's wrong part and the source's words stay, the others are counted", () => {
    const others = Array.from({ length: 4 }, (_, i) => flag(`Bridge ${i} is made of wood and glass.`, "stone"))
    const notice = buildNotice([flag("The capital is Fredville.", "The capital of Freedonia is Marxburg."), ...others])
    expect(notice).toBe(
      'Automatic check: "Fredville" conflicts with notes.txt:1-15, which says\n"Marxburg". Asking the agent to fix it and 4 more; see /ragfaith.',
    )
  })

  test("a long statement is cut around its wrong part, so the part is always shown", () => {
    const long =
      "The old bridge over the Zeppo at Marxburg, built of grey stone by the river guild, was rebuilt in 1950 after the flood."
    const notice = buildNotice([flag(long, "The bridge was built in 1802 and rebuilt in 1921."), flag("x is y.", "z")])
    const flat = notice.replace("\n", " ")
    expect(flat).toContain("1950")
    expect(flat).toContain('"1921"')
    expect(flat).toContain("and 1 more")
    for (const line of notice.split("\n")) expect(line.length).toBeLessThanOrEqual(MESSAGE_WIDTH)
  })

  test("German statements too", () => {
    const notice = buildNotice([flag("Über den Zeppo führen sieben Brücken.", "Über den Zeppo führen 3 Brücken.")])
    expect(notice.replace("\n", " ")).toBe(
      'Automatic check: "Über den Zeppo führen sieben Brücken." conflicts with notes.txt:1-15, which says "3 Brücken". Asking the agent to correct it.',
    )
  })

  test("the first contradicted statement leads even behind one no source backs (strict mode)", () => {
    const notice = buildNotice([
      flag("Freedonia joined the league in 1921.", undefined, { verdict: "unverifiable", source: undefined }),
      flag("It has 7 bridges.", "It has 3 bridges"),
    ])
    expect(notice.replace("\n", " ")).toContain('"3 bridges"')
    expect(notice.replace("\n", " ")).toContain("and 1 more")
  })

  test("a wrong part with no source words in its place is named with `on`, the quote after it where it fits", () => {
    const notice = buildNotice([
      flag("Freedonia is not a member of the league.", "Freedonia is a member of the league."),
    ])
    expect(notice.replace("\n", " ")).toContain('on "not"; it says "Freedonia is a member')
  })
})

describe("the source's words are the source's own", () => {
  test("an identifier stays one word, and the source side never borrows the claim's spelling", () => {
    const quote = "export const MAX_ATTEMPTS = 3"
    const contrast = contrastOf("retry() in src/net.ts backs off exponentially, up to 5 attempts.", quote)
    expect(contrast?.claimPart).toBe("5")
    for (const word of contrast?.sourcePart?.split(" ") ?? []) expect(quote).toContain(word)
  })

  test("a shared word is shown as each side writes it", () => {
    const contrast = contrastOf("Seven Bridges span the Zeppo.", "Freedonia has 3 bridges over the Zeppo.")
    expect(contrast).toEqual({ claimPart: "Seven Bridges", sourcePart: "3 bridges" })
  })
})
