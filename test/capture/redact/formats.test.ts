import { describe, expect, test } from "bun:test"
import { inPublishedFormat, PUBLISHED_FORMATS } from "../../../src/capture/redact/formats.ts"
import { redactSecrets, SECRET_RULES } from "../../../src/capture/redact/redact.ts"
import { REDACTED } from "../../../src/capture/redact/values.ts"
import { FORMAT_CLASSES } from "../../support/corpora/formats.ts"
import {
  ALONE_CONTEXTS,
  ALPHABETS,
  type Draw,
  EXTRA_FORMATS,
  PROMISED_FORMATS,
  VENDOR_FORMATS,
} from "../../support/corpora/secrets.ts"
import { secretGone } from "../../support/corpora/unseen.ts"

describe("redaction: a value filling a vendor's published format goes, whatever its body looks like", () => {
  test.each(FORMAT_CLASSES.flatMap((c) => c.positives.map(([text, secret]) => [c.name, text, secret] as const)))(
    "%s: %s",
    (_name, text, secret) => {
      const output = redactSecrets(text)
      expect({ gone: secretGone(secret, output, text), output }).toEqual({ gone: true, output })
    },
  )

  test("the low-entropy GitHub token: `ghp_` and `Ab3` to the full length", () => {
    expect(redactSecrets(`ghp_${"Ab3".repeat(12)}`)).toBe(REDACTED)
    // One character short is no GitHub token at all, and stays.
    expect(redactSecrets(`ghp_${"Ab3".repeat(11)}Ab`)).toBe(`ghp_${"Ab3".repeat(11)}Ab`)
  })

  test("a stand-in of a format's prefix and another length keeps the stand-in test", () => {
    // GitHub's rule reads tokens up to 255 characters; only 36 is the published length.
    const long = `ghp_${"x".repeat(40)}`
    expect(redactSecrets(long)).toBe(long)
  })
})

describe("redaction: what is plainly no value stays beside the vendors' formats", () => {
  test.each(FORMAT_CLASSES.flatMap((c) => c.negatives.map((line) => [c.name, line] as const)))(
    "%s: %s",
    (_name, line) => {
      expect(redactSecrets(line)).toBe(line)
    },
  )
})

describe("redaction: the published formats table", () => {
  const PUBLISHED_FORMAT_RULES = [...PUBLISHED_FORMATS.keys()]

  test("names only rules that exist, so no entry is silently dead", () => {
    const names = new Set(SECRET_RULES.map((rule) => rule.name))
    expect(PUBLISHED_FORMAT_RULES.filter((name) => !names.has(name))).toEqual([])
  })

  /**
   * A draw that fills each part of a format with its own alphabet's first three characters in turn, at the
   * shortest length it allows: a fixture's body (`ABCABC…`, `012012…`) in the format's shape.
   */
  const fixtureDraw: Draw = (length, alphabet = ALPHABETS.alnum) => {
    const n = typeof length === "number" ? length : length[0]
    return Array.from({ length: n }, (_, i) => alphabet[i % 3]).join("")
  }

  // Every generated vendor format whose token fills a published shape, made with a fixture's body.
  const fixtures = [...PROMISED_FORMATS, ...VENDOR_FORMATS, ...EXTRA_FORMATS]
    .filter((format) => format.alone)
    .flatMap((format) => {
      const made = format.make(fixtureDraw)
      const token = typeof made === "string" ? made : (made.secrets[0] ?? "")
      const whole = typeof made === "string" ? made : made.text.replace(/^https:\/\//, "")
      const rule = PUBLISHED_FORMAT_RULES.find((name) => inPublishedFormat(name, whole))
      return rule
        ? [[`${format.family} ${format.format}`, rule, typeof made === "string" ? made : made.text, token]]
        : []
    }) as Array<[string, string, string, string]>

  test("covers the vendors it should: a fixture fills a published shape for most generated formats", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(40)
  })

  test.each(fixtures)("%s (%s): a fixture's body goes in every context", (_format, _rule, text, token) => {
    const kept = ALONE_CONTEXTS.map((context) => context.replaceAll("{s}", text)).filter(
      (line) => !secretGone(token, redactSecrets(line), line),
    )
    expect(kept).toEqual([])
  })
})
