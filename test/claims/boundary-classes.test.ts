/**
 * One rule per class of boundary the splitter used to miss or invent, each with cases written for this project
 * from public text in general (news reports, encyclopaedia prose, shop listings), English and German where the
 * class exists in both.
 */

import { describe, expect, test } from "bun:test"
import { sentences, splitClaims } from "../../src/claims/split.ts"

const split = (text: string) => splitClaims(text, 50).claims.map((claim) => claim.text)

describe("merges that hid a statement", () => {
  test.each([
    // a sentence that opens with a number (ICU reads on to the next lowercase letter)
    ["Die Halle wurde im Mai eröffnet. 1998 folgte der zweite Bauabschnitt am Hafen."],
    ["Only 500 copies were printed. 2011 saw a second edition with a new cover."],
    // an English unit after a number before a capital
    ["The crate weighed 40 lb. Maria lifted it onto the truck without help."],
    ["The trail climbs for 2 mi. Hikers should carry enough water for the day."],
    // no space after the full stop, a full-width stop, a footnote number after a year
    ["The office closed on Friday.The staff moved to the new building next week."],
    ["The office closed on Friday．The staff moved to the new building next week."],
    ["Das Werk schloss im Jahr 1994.2 Danach stand die Halle lange leer."],
    // a dotted acronym that ends a sentence before a subject that opens the next
    ["The parade was the largest in the history of the U.S. Millions attended it downtown."],
    ["The talks were held in the U.K. Officials gave no details after the meeting."],
    ["Der Umzug war der größte in der Geschichte der U.S.A. Tausende kamen in die Stadt."],
    // a variable of one letter ends a sentence before a usual opener
    ["The loop stops at index i. Then the buffer is flushed to disk."],
    ["Let the count of open files be n. This bounds the memory the cache may use."],
    // a short lowercase label in brackets opens the next sentence
    ["Deploys run every night. (optional) Run the migration by hand before the first one."],
    ["Der Build läuft jede Nacht. (optional) Die Migration kann vorher von Hand laufen."],
    // "usw." written with spaces ends a sentence as "usw." does
    ["Der Laden verkauft Äpfel, Birnen u. s. w. Er öffnet jeden Morgen um acht Uhr."],
  ])("%p is two sentences", (text) => {
    expect(split(text)).toHaveLength(2)
  })

  // A dash after a stop opens the next sentence (ICU reads a dash as a sentence that goes on); the dash itself
  // belongs to neither claim.
  test.each([
    ["The museum reopened in May. – The west wing stays closed until autumn.", "The west wing"],
    ["Did the council approve the budget? — The vote was postponed to March.", "The vote"],
    ["The bridge carries two lanes of traffic. - The footpath was added in 1998.", "The footpath"],
    ["Die Brücke wurde 1911 eröffnet. – Der Umbau begann erst hundert Jahre später.", "Der Umbau"],
    ["Wer hat das Rathaus entworfen? – Die Pläne stammen von einem Büro aus Köln.", "Die Pläne"],
  ])("%p: the sentence after the dash is its own claim", (text, opening) => {
    const claims = split(text)
    expect(claims.at(-1)?.startsWith(opening)).toBe(true)
    expect(claims.join(" ")).not.toContain(". –")
  })
})

describe("splits inside a sentence", () => {
  test.each([
    "In 44 B.C. Caesar was murdered by a group of senators in Rome.",
    "Die Fahrt dauert 3 Std. Anfahrt und Pausen sind darin schon enthalten.",
    "Die Bauer GmbH & Co. KG liefert seit Jahren Ersatzteile nach Polen.",
    "The report was filed by Sen. Maria Cantwell before the recess began.",
    "The keynote starts at 10 a.m. sharp in the main hall of the venue.",
    'The sign said "Wait!" and nobody crossed the street before the light.',
    // a dotted acronym before a name it is part of, and German abbreviations before a quantity
    "The U.S. Census data for the county is in the public domain.",
    "The new servers go live in the U.S. Region first and in Europe later.",
    "Es gibt u. a. Millionen Varianten dieser Bauform in älteren Anlagen.",
    "Der Bericht nennt z. B. Tausende Fälle aus den letzten zehn Jahren.",
    // a letter that abbreviates before a capital, and a bracket inside a sentence
    "The ruling in Smith v. The State of Ohio is cited in the appendix.",
    "The job (nightly) Runs the full suite against the staging database.",
    // a dash after an abbreviation, an initial or an ordinal, and one with no capital after it
    "Die Lieferung kam am 3. – Montag war ohnehin ein Feiertag in der Region.",
    "The letter was signed by John F. — Kennedy's brother kept the original copy.",
    "The station was closed for repairs. – and the buses ran every ten minutes instead.",
  ])("%p stays one sentence", (sentence) => {
    expect(split(sentence)).toEqual([sentence])
  })
})

describe("a paragraph longer than a window", () => {
  const segmenter = new Intl.Segmenter(undefined, { granularity: "sentence" })
  // Sentences of about 60 characters with code in them: a paragraph of 100 KB is read in several windows.
  const sentence = (i: number) => `Step ${i} of the build calls \`s3.PutObject\` with the key k${i}.`
  const many = Array.from({ length: 1800 }, (_, i) => sentence(i))

  test("is split as it would be whole: no sentence and no code span is cut at a window's edge", () => {
    const claims = splitClaims(many.join(" "), 5000).claims.map((claim) => claim.raw ?? claim.text)
    expect(claims).toEqual(many)
  })

  test("a sentence that runs across a window's edge stays whole", () => {
    const before = "The cat sat on the mat today. ".repeat(600).trim()
    const long = `The list of keys is ${"alpha beta gamma delta ".repeat(700)}and more.`
    const claims = splitClaims(`${before} ${long} It ends here today.`, 50).claims.map((claim) => claim.text)
    expect(claims).toEqual(["The cat sat on the mat today.", long, "It ends here today."])
  })

  test("a run of text with no sentence end is cut into claims of bounded length", () => {
    const pieces = [...sentences("`s3.PutObject` ".repeat(40_000), segmenter)]
    expect(pieces.length).toBeGreaterThan(5)
    for (const piece of pieces) expect(piece.length).toBeLessThan(70_000)
  })
})
