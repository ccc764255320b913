/**
 * Inline code, URLs and identifiers hold no sentence boundary: ICU breaks after a dot that follows a digit or
 * an underscore and precedes a capital (`s3.PutObject`, `v2.Client`, `__main__.Outer`), and after every "!" and
 * "?", so without the shield one sentence reached the judge as two meaningless halves.
 */

import { describe, expect, test } from "bun:test"
import { splitClaims } from "../../src/claims/split.ts"

const claims = (text: string) => splitClaims(text, 50).claims.map((claim) => claim.text)

describe("tokens hold no sentence boundary", () => {
  test.each([
    ["The client calls `s3.PutObject` with the bucket from the config.", "AWS SDK for Go"],
    ["The encoder uses `base64.StdEncoding` for every payload it writes.", "Go standard library"],
    ["The handler builds a `v2.Client` once and reuses it for each request.", "a versioned Go package"],
    ["The traceback names `__main__.Outer.Inner` as the class that failed.", "Python nested classes"],
    ["Without backticks the call to s3.PutObject still sends the whole body.", "bare identifier"],
    ["The script reads __main__.Config before anything else runs.", "bare dunder module"],
    ["The template calls `user?.Name!` and renders an empty string.", "optional chaining and a bang"],
    ["Die Funktion ruft `s3.PutObject` mit dem Bucket aus der Konfiguration auf.", "German"],
    ["Die Doku unter https://example.org/v2.Client?tab=Methods beschreibt jede Methode.", "URL"],
  ])("%p stays one sentence (%s)", (sentence) => {
    expect(claims(`${sentence} The next sentence says something else.`)).toEqual([
      sentence.replace(/`/g, ""),
      "The next sentence says something else.",
    ])
  })

  test("a URL at the end of a sentence still ends it", () => {
    expect(claims("The guide lives at https://example.org/docs/v2. It covers the migration.")).toEqual([
      "The guide lives at https://example.org/docs/v2.",
      "It covers the migration.",
    ])
  })

  test("a stray backtick does not swallow the boundary after it", () => {
    expect(claims("The flag is named `strict. The build reads it at start-up.")).toEqual([
      "The flag is named `strict.",
      "The build reads it at start-up.",
    ])
  })

  test("TeX quotes with doubled backticks are no code span", () => {
    expect(
      claims("Er sprach von einer ``klaren Linie'' im Vertrag. ``Wir bleiben dabei'', sagte er danach."),
    ).toHaveLength(2)
  })
})
