// Section 5 of `bun bench/run.ts`: throughput of claim splitting and redaction, and redaction coverage.
import { redactSecrets } from "../../src/capture/redact/redact.ts"
import { splitClaims } from "../../src/claims/split.ts"
import { DEFAULTS } from "../../src/config/config.ts"
import { CORPUS } from "../../test/support/corpora/agent-turns.ts"
import { randomToken, rng } from "../../test/support/random.ts"
import {
  BLOCK_STAIRS,
  fmtBytes,
  fmtMs,
  KB,
  MB,
  median,
  repeatSync,
  repeatTo,
  SUPER_LINEAR,
  scaling,
  table,
  tsCode,
} from "../lib.ts"

import type { Report } from "./common.ts"

const ADVERSARIAL_REDACTION: Array<[string, (size: number) => string]> = [
  ['"sk-" repeated', (n) => repeatTo("sk-", n)],
  ['"ghp_" repeated', (n) => repeatTo("ghp_", n)],
  ['"eyJ" repeated', (n) => repeatTo("eyJ", n)],
  ['"eyJ-" repeated (a JWT start at every dash)', (n) => repeatTo("eyJ-", n)],
  ['"eyJhbGciOi." repeated (header, no payload)', (n) => repeatTo("eyJhbGciOi.", n)],
  [
    "BEGIN PRIVATE KEY, no END",
    (n) => `-----BEGIN PRIVATE KEY-----\n${repeatTo("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n", n)}`,
  ],
  ['"-----BEGIN PRIVATE KEY-----" repeated', (n) => repeatTo("-----BEGIN PRIVATE KEY-----\n", n)],
  ['"-----END PRIVATE KEY-----" repeated, no BEGIN', (n) => repeatTo("-----END PRIVATE KEY-----\n", n)],
  ['"Bearer " repeated', (n) => repeatTo("Bearer ", n)],
  ['"Bearer " + one long token', (n) => `Bearer ${repeatTo("aB3dE6gH9", n)}`],
  [
    "one line of random [A-Za-z0-9_-]",
    (n) => randomToken(rng(3), n, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"),
  ],
  ['"password=" repeated', (n) => repeatTo("password=", n)],
  ['password=" + unclosed long value', (n) => `password="${repeatTo("x", n)}`],
  ['"://a:b@" repeated', (n) => repeatTo("://a:b@", n)],
  ['"postgres://" + "a:b" runs, no @', (n) => `postgres://${repeatTo("a:b", n)}`],
  ['"API_KEY=" repeated', (n) => repeatTo("API_KEY=", n)],
  ['"SECRET_TOKEN_" repeated (one long upper-case word)', (n) => repeatTo("SECRET_TOKEN_", n)],
  ['"AKIA" repeated', (n) => repeatTo("AKIA", n)],
  ['"Basic " repeated', (n) => repeatTo("Basic ", n)],
  // The assignment scan: a hit every few bytes, each an assignment whose value is no secret.
  ['key=" repeated (quoted values that are names)', (n) => repeatTo('key="', n)],
  ['token=" repeated (quoted values that are names)', (n) => repeatTo('token="', n)],
  ['"key":" repeated (JSON keys, one after another)', (n) => repeatTo('"key":"', n)],
  ['"key: " repeated', (n) => repeatTo("key: ", n)],
  ['"key " repeated (names without operators)', (n) => repeatTo("key ", n)],
  ["token: ' repeated (quoted prose)", (n) => repeatTo("token: '", n)],
  ['"password": " repeated', (n) => repeatTo('"password": "', n)],
  ['<add key="password" repeated (name fields without values)', (n) => repeatTo('<add key="password" ', n)],
  ['"<password>" repeated', (n) => repeatTo("<password>", n)],
  ['"- name: DB_PASSWORD" lines', (n) => repeatTo("- name: DB_PASSWORD\n", n)],
  ["${TOKEN repeated", (n) => repeatTo("${TOKEN", n)],
  ['" -pass pass:" repeated (flags)', (n) => repeatTo(" -pass pass:", n)],
  ['"key_" lines', (n) => repeatTo("key_\n", n)],
  ['"passwordpassword…" (one long name)', (n) => repeatTo("password", n)],
  // Command lines, JWTs, manifests and token formats the new rules read.
  ['" -u a:" repeated', (n) => repeatTo(" -u a:", n)],
  ['"docker login -p x " repeated', (n) => repeatTo("docker login -p x ", n)],
  ['"Authorization: token " repeated', (n) => repeatTo("authorization: token ", n)],
  ['".eyJ" repeated', (n) => repeatTo(".eyJ", n)],
  ['"_eyJhbGciOi." repeated (glued JWT headers)', (n) => repeatTo("_eyJhbGciOi.", n)],
  ["a Secret manifest of a megabyte of data lines", (n) => `kind: Secret\ndata:\n${repeatTo("  k: dmFsdWU=\n", n)}`],
  ['"---\\nkind: Secret" documents', (n) => repeatTo("---\nkind: Secret\ndata:\n  a: b\n", n)],
  [
    '"QUJD\\n-----END PRIVATE KEY-----" repeated (a short key body before each lone END)',
    (n) => repeatTo("QUJD\n-----END PRIVATE KEY-----\n", n),
  ],
  ['"aaa1Q~" repeated (Entra secrets)', (n) => repeatTo("aaa1Q~", n)],
  ['"xoxb-" repeated', (n) => repeatTo("xoxb-", n)],
  ["one line of random hex", (n) => randomToken(rng(4), n, "0123456789abcdef")],
  ['"env: "API_KEY=" repeated (assignments in quoted values)', (n) => repeatTo('env: "API_KEY=', n)],
  // Code: comparisons, calls and their arguments, credential pairs.
  ['"password == " repeated', (n) => repeatTo("password == ", n)],
  ['""a" == password " repeated (a literal before the name)', (n) => repeatTo('"a" == password ', n)],
  ['"password.equals(" repeated', (n) => repeatTo("password.equals(", n)],
  ['"strcmp(password, " repeated', (n) => repeatTo("strcmp(password, ", n)],
  ['"setPassword(" repeated (calls in calls)', (n) => repeatTo("setPassword(", n)],
  ['"setPassword("abcd".x(" repeated (conversions never closed)', (n) => repeatTo('setPassword("abcd".x(', n)],
  ['"HTTPBasicAuth(" repeated (arguments never closed)', (n) => repeatTo("HTTPBasicAuth(", n)],
  ['"login("a", " repeated', (n) => repeatTo('login("a", ', n)],
  ['"auth=("a", " repeated (pairs never closed)', (n) => repeatTo('auth=("a", ', n)],
  // YAML block scalars after a secret's name.
  ['"password:", a pipe and a line break, repeated (block scalars with no lines)', (n) => repeatTo("password: |\n", n)],
  ["one block scalar of a megabyte", (n) => `password: |\n${repeatTo("  Zx9vQ2mL\n", n)}`],
  ["block scalars nested 256 deep, each inside the last", (n) => repeatTo(BLOCK_STAIRS, n)],
  ['"key:", a pipe and a comment, repeated on one line (headers amid a line)', (n) => `x ${repeatTo("key: | # ", n)}`],
  // Command lines, cookies and Authorization parameters the newer rules read.
  ['"sqlcmd -P $PW " repeated', (n) => repeatTo("sqlcmd -P $PW ", n)],
  ['"htpasswd -b f u " repeated', (n) => repeatTo("htpasswd -b f u ", n)],
  ['"net user a * " repeated', (n) => repeatTo("net user a * ", n)],
  [
    '"echo $TOKEN" piped into "docker login --password-stdin", repeated',
    (n) => repeatTo("echo $TOKEN | docker login --password-stdin ", n),
  ],
  ['"Cookie: sid=x; " repeated', (n) => repeatTo("Cookie: sid=deleted; ", n)],
  ['"cookie:" repeated (one long name)', (n) => repeatTo("cookie:", n)],
  ["cookie jar lines of no session", (n) => repeatTo(".x.test\tTRUE\t/\tFALSE\t0\ttheme\tdark\n", n)],
  ['"Authorization: Digest a="b", " repeated', (n) => repeatTo('Authorization: Digest a="b", ', n)],
  // The vendors' published formats, and values of punctuation alone.
  [
    '"ghp_" and 36 x\'s repeated (each a fixture in the published format)',
    (n) => repeatTo(`ghp_${"x".repeat(36)} `, n),
  ],
  [
    '"glpat-" and 21 a\'s repeated (each a length off the published one)',
    (n) => repeatTo(`glpat-${"a".repeat(21)} `, n),
  ],
  ['"password = ,.:-!?" lines', (n) => repeatTo("password = ,.:-!?\n", n)],
]

function markdownCorpus() {
  return CORPUS.map((entry) => entry.reply).join("\n\n")
}

export async function benchThroughput({ print, targets, findings }: Report) {
  print("## 5. Throughput: claim splitting and redaction")
  print()
  const segmenter = new Intl.Segmenter(undefined, { granularity: "sentence" })
  const corpus = markdownCorpus()
  const oneMB = repeatTo(`${corpus}\n\n`, MB)
  const code = tsCode(MB, { seed: 21, secretEvery: 200 })
  const rows: string[][] = []
  const measure = (label: string, input: string, work: (input: string) => unknown, minMs: number) => {
    const ms = median(repeatSync(() => work(input), minMs, 3))
    const mbps = input.length / MB / (ms / 1000)
    rows.push([label, fmtBytes(input.length), fmtMs(ms), `${mbps.toFixed(1)} MB/s`, fmtMs((ms * MB) / input.length)])
    return ms
  }
  const split = (input: string) => splitClaims(input, DEFAULTS.maxClaims, segmenter)
  measure(`splitClaims, the ${CORPUS.length} corpus replies (markdown, EN+DE)`, corpus, split, 400)
  measure("splitClaims, corpus repeated to 1 MB", oneMB, split, 1500)
  measure("redactSecrets, 1 MB TypeScript (a secret every 200 lines)", code, redactSecrets, 1000)
  print(table(["work", "input", "time (median)", "throughput", "per MB"], rows))
  print()
  print("Redaction on adversarial input (the per-MB cost is taken at the largest size measured; growth exponent")
  print("between the two largest sizes: 1 = linear, 2 = quadratic):")
  print()
  const adversarial: string[][] = []
  let worst = 0
  for (const [label, make] of ADVERSARIAL_REDACTION) {
    const result = scaling(redactSecrets, make, [16 * KB, 64 * KB, 256 * KB, MB], 2_500)
    const last = result.points.at(-1)
    const superLinear = result.exponent > SUPER_LINEAR
    worst = Math.max(worst, result.msPerMB)
    adversarial.push([
      label,
      fmtBytes(last?.size ?? 0),
      fmtMs(last?.ms ?? NaN),
      fmtMs(result.msPerMB),
      result.exponent.toFixed(2),
      superLinear ? "SUPER-LINEAR" : result.msPerMB < 100 ? "ok" : "SLOW (linear)",
    ])
    if (superLinear || result.msPerMB >= 100) {
      findings.push(
        `redactSecrets on ${label}: ${fmtMs(result.msPerMB)} per MB, growth exponent ${result.exponent.toFixed(2)}`,
      )
    }
  }
  print(table(["input", "largest", "time", "per MB", "exponent", ""], adversarial))
  print()
  targets.push([
    "5. redaction, worst adversarial input",
    "< 100 ms per MB",
    fmtMs(worst),
    worst < 100 ? "met" : "MISSED",
  ])
  // Loaded here: the coverage corpora are built only when this section runs (bench/redaction.ts alone too).
  const { redactionCoverage } = await import("../redaction.ts")
  const coverage = redactionCoverage()
  print("Redaction coverage on the generated corpora and the clean corpus (bench/redaction.ts):")
  print()
  print(coverage.text)
  print()
  targets.push(...coverage.targets)
  for (const [target, goal, measured, verdict] of coverage.targets) {
    if (verdict !== "met") findings.push(`${target}: ${measured} (goal ${goal})`)
  }
}
