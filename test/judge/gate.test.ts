// The verbatim gate: a claim that stands word for word in a source needs no judge.
import { describe, expect, test } from "bun:test"
import { normalizeForMatch } from "../../src/claims/split.ts"
import { isVerbatimInSources, normalizeSources } from "../../src/judge/gate.ts"
import type { Claim, Premise } from "../../src/state/shapes.ts"

describe("isVerbatimInSources", () => {
  const premise = (text: string): Premise => ({
    id: "S1",
    tool: "read",
    origin: "machine",
    ref: "facts.txt",
    path: undefined,
    text,
  })
  const claim = (text: string): Claim => ({ text, key: normalizeForMatch(text) })

  test.each([
    [
      "a sentence of the source",
      "The request cache is enabled by default.",
      "The request cache is enabled by default.",
      true,
    ],
    [
      "at the end of the source",
      "The request cache is enabled by default.",
      "Intro. The request cache is enabled by default",
      true,
    ],
    [
      "before a semicolon",
      "The request cache is enabled by default.",
      "The request cache is enabled by default; see below.",
      true,
    ],
    [
      "markdown and case differ",
      "The **Request** cache is enabled by `default`.",
      "the request cache is enabled by default.",
      true,
    ],
    [
      "the sentence spans two read lines",
      "The request cache is enabled by default.",
      "12: The request cache is\n13: enabled by default.",
      true,
    ],
    [
      "one of several read lines",
      "Freedonia's national animal is the red fox.",
      "1: The capital is Fredville.\n2: Freedonia's national animal is the red fox.\n3: End.",
      true,
    ],
    [
      "qualified: only when",
      "The request cache is enabled by default.",
      "The request cache is enabled by default only when CACHE=1 is set.",
      false,
    ],
    [
      "qualified after a comma",
      "The request cache is enabled by default.",
      "The request cache is enabled by default, except on Windows.",
      false,
    ],
    ["a longer number", "5 retries are allowed per request.", "15 retries are allowed per request.", false],
    ["a longer word", "server restarts after each deploy.", "The subserver restarts after each deploy.", false],
    ["shorter than the minimum, though verbatim", "It has 3 bridges.", "It has 3 bridges.", false],
    ["absent", "The request cache is disabled by default.", "The request cache is enabled by default.", false],
  ])("%s → %p", (_name, claimText, source, gated) => {
    expect(isVerbatimInSources(claim(claimText), normalizeSources([premise(source)]))).toBe(gated)
  })

  test("read-output line numbers are dropped from the sources", () => {
    expect(normalizeSources([premise("1: The capital is Fredville.\n2: It has 3 bridges.")])).toBe(
      "the capital is fredville. it has 3 bridges",
    )
  })
})
