import { describe, expect, test } from "bun:test"
import { redactSecrets } from "../../../src/capture/redact/redact.ts"
import { secretGone, UNSEEN_CLASSES } from "../../support/corpora/unseen.ts"

describe("redaction: secret shapes no rule read before, each class at least 95%", () => {
  test.each(UNSEEN_CLASSES.filter((c) => c.positives.length > 0).map((c) => [c.name, c] as const))(
    "%s",
    (_name, unseen) => {
      const missed = unseen.positives.filter(([text, secret]) => !secretGone(secret, redactSecrets(text), text))
      expect({ missed, share: 1 - missed.length / unseen.positives.length >= 0.95 }).toEqual({
        missed: [],
        share: true,
      })
    },
  )
})

describe("redaction: the never-secret lines beside each class stay as they are", () => {
  test.each(UNSEEN_CLASSES.flatMap((c) => c.negatives.map((line) => [c.name, line] as const)))(
    "%s: %s",
    (_name, line) => {
      expect(redactSecrets(line)).toBe(line)
    },
  )

  test("a C cast assigned to pwd stays, and a password after it on the next line still goes", () => {
    const text = 'pwd = (char *) (p + ulen + 2);\npassword = "Qm7vT2kLp9Xw";'
    expect(redactSecrets(text)).toBe('pwd = (char *) (p + ulen + 2);\npassword = "[REDACTED]";')
  })

  test("a prefix a format rule knows, at a length it does not, is a fixture: it stays", () => {
    // Sentry's user tokens are `sntryu_` and 64 hex digits; 65 is a near miss, not an unknown vendor's key.
    const line = `sntryu_${"3f5a9c2e1b7d54a6".repeat(4)}7`
    expect(redactSecrets(line)).toBe(line)
  })

  test("a JSON-RPC call keeps its address and duration and loses the passphrase", () => {
    const line = '{"method":"personal_unlockAccount","params":["0x7f3a2b1c9d8e4f5a6b7c","Gl4ssOnion!",300]}'
    expect(redactSecrets(line)).toBe(
      '{"method":"personal_unlockAccount","params":["0x7f3a2b1c9d8e4f5a6b7c","[REDACTED]",300]}',
    )
  })
})
