/**
 * One rule per class of boundary the splitter used to miss or invent, each with cases written for this project
 * from public text in general (news reports, encyclopaedia prose, shop listings), English and German where the
 * class exists in both.
 */

import { describe, expect, test } from "bun:test"
import { splitClaims } from "../../src/claims/split.ts"

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
  ])("%p is two sentences", (text) => {
    expect(split(text)).toHaveLength(2)
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
  ])("%p stays one sentence", (sentence) => {
    expect(split(sentence)).toEqual([sentence])
  })
})
