/**
 * Redaction coverage: `bun bench/redaction.ts` (a few seconds), also printed by section 5 of `bun bench/run.ts`.
 *
 * Runs the generated corpora of test/support/corpora/secrets.ts (fake secrets in every vendor format, standing
 * alone and behind their usual name, and in every assignment shape) and the clean corpus of
 * test/support/corpora/clean.ts (plus generated TypeScript and Python) through the real redactSecrets. The seeds
 * are those the tests use, so these are the figures test/capture/redact/redaction.test.ts holds the code to.
 * Prints shares and counts only, never a sample: nothing secret-looking reaches the output.
 */

import { redactAssignments } from "../src/capture/redact/assignments.ts"
import { redactCommandFlags } from "../src/capture/redact/commands.ts"
import { redactCookies } from "../src/capture/redact/cookies.ts"
import { redactJwts } from "../src/capture/redact/jwt.ts"
import { redactPrivateKeys } from "../src/capture/redact/keys.ts"
import { redactSecretManifests } from "../src/capture/redact/manifests.ts"
import { keywordTest, redactSecrets, SECRET_RULES } from "../src/capture/redact/redact.ts"
import { CLEAN_CORPUS } from "../test/support/corpora/clean.ts"
import { FORMAT_CLASSES } from "../test/support/corpora/formats.ts"
import { changedLines, corpora, type FormatSample, type Tally, tally } from "../test/support/corpora/secrets.ts"
import { secretGone, UNSEEN_CLASSES } from "../test/support/corpora/unseen.ts"
import { randomToken, rng } from "../test/support/random.ts"
import { BLOCK_STAIRS, fmtMs, KB, MB, median, pyCode, repeatSync, repeatTo, table, tsCode } from "./lib.ts"

const share = (row: Tally | undefined) =>
  row ? `${((100 * row.redacted) / row.total).toFixed(1)}% of ${row.total}` : "—"

/** One row per family: its share standing alone and behind its name. */
function familyRows(samples: readonly FormatSample[]): string[][] {
  const rows = tally(samples, redactSecrets, (sample) => `${sample.family}\u0000${sample.context}`)
  const families = [...new Set(samples.map((sample) => sample.family))]
  const find = (family: string, context: string) => rows.find((row) => row.group === `${family}\u0000${context}`)
  return families.map((family) => [family, share(find(family, "alone")), share(find(family, "named"))])
}

function weakest(rows: readonly Tally[]): number {
  return Math.min(...rows.map((row) => (100 * row.redacted) / row.total))
}

/** The coverage tables as markdown, and the targets they meet or miss. */
export function redactionCoverage(): { text: string; targets: Array<[string, string, string, string]> } {
  const started = performance.now()
  const { promised, vendors, extras, shapes } = corpora()
  const out: string[] = []
  const headers = ["family", "standing alone", "behind its name"]
  out.push("Families the README promised before:", "", table(headers, familyRows(promised)), "")
  out.push("Vendors the README did not name before:", "", table(headers, familyRows(vendors)), "")
  out.push("Further prefix-anchored vendors:", "", table(headers, familyRows(extras)), "")
  const shapeTally = tally(shapes, redactSecrets, (sample) => sample.shape)
  out.push("Assignment shapes (value redacted, name kept):", "")
  out.push(
    table(
      ["shape", "redacted"],
      shapeTally.map((row) => [row.group, share(row)]),
    ),
    "",
  )
  const clean: Array<readonly [string, string]> = [
    ...CLEAN_CORPUS,
    ["generated TypeScript, 64 KB", tsCode(64 * KB, { seed: 3 })],
    ["generated Python, 64 KB", pyCode(64 * KB)],
  ]
  let lines = 0
  let changed = 0
  for (const [, text] of clean) {
    lines += text.split("\n").length
    changed += changedLines(text, redactSecrets(text))
  }
  out.push(`Clean corpus: ${clean.length} texts, ${lines.toLocaleString("en")} lines, ${changed} changed.`)
  const samples = promised.length + vendors.length + extras.length + shapes.length
  out.push(`${samples.toLocaleString("en")} samples measured in ${fmtMs(performance.now() - started)}.`)
  const families = tally([...promised, ...vendors], redactSecrets, (sample) => `${sample.family}, ${sample.context}`)
  const familyWorst = weakest(families)
  const shapeWorst = weakest(shapeTally)
  return {
    text: out.join("\n"),
    targets: [
      ["5. redaction, weakest family", "≥ 99%", `${familyWorst.toFixed(1)}%`, familyWorst >= 99 ? "met" : "MISSED"],
      [
        "5. redaction, weakest assignment shape",
        "≥ 95%",
        `${shapeWorst.toFixed(1)}%`,
        shapeWorst >= 95 ? "met" : "MISSED",
      ],
      ["5. redaction, clean corpus", "0 changed lines", String(changed), changed === 0 ? "met" : "MISSED"],
    ],
  }
}

/**
 * 64 KB of random `[A-Za-z0-9_-]`, repeated to each size: one run as long as the input, whose characters hold the
 * same rules' keywords at every size. Fresh random text of 8 MB holds more of them by chance (46 of 140 rules run
 * on it, 27 on 1 MB), which raises its cost per MB by what it contains, not by how long it is.
 */
const RANDOM_RUN = randomToken(rng(3), 64 * KB, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

/**
 * The adversarial inputs that cost the most per megabyte (bench/run.ts section 5 has them all), each made at a
 * given size: an input of one long construct (a list, a URL, a value) stays one at every size.
 */
const COSTLY_INPUTS: Array<[string, (size: number) => string]> = [
  ['"key":" repeated', (n) => repeatTo('"key":"', n)],
  ['token=" repeated', (n) => repeatTo('token="', n)],
  ["token: ' repeated", (n) => repeatTo("token: '", n)],
  ['"key: " repeated', (n) => repeatTo("key: ", n)],
  ['<add key="password" repeated', (n) => repeatTo('<add key="password" ', n)],
  ['"password": " repeated', (n) => repeatTo('"password": "', n)],
  ['key=" repeated', (n) => repeatTo('key="', n)],
  ["a Secret manifest of data lines", (n) => `kind: Secret\ndata:\n${repeatTo("  k: dmFsdWU=\n", n)}`],
  ["random [A-Za-z0-9_-]", (n) => repeatTo(RANDOM_RUN, n)],
  ['" -u a:" repeated', (n) => repeatTo(" -u a:", n)],
  ['"://a:b@" repeated', (n) => repeatTo("://a:b@", n)],
  // What the newer rules read: NuGet's plain key, PAT names, Terraform variable blocks, unseal keys, unsigned JWTs.
  ['"nuget push p " repeated', (n) => repeatTo("nuget push p ", n)],
  ['"X_PAT=" repeated', (n) => repeatTo("X_PAT=", n)],
  ['variable "db_password" { repeated', (n) => repeatTo('variable "db_password" {\n', n)],
  ['"Unseal Key 1: " repeated', (n) => repeatTo("Unseal Key 1: ", n)],
  ['"eyJhbGciOi.eyJzdWIiOi " repeated', (n) => repeatTo("eyJhbGciOi.eyJzdWIiOi ", n)],
  ['" -u abcdefgh:" repeated', (n) => repeatTo(" -u abcdefgh:", n)],
  // An assignment inside a quoted value: a hit every 14 bytes, each reading a value.
  ['"env: "API_KEY=" repeated', (n) => repeatTo('env: "API_KEY=', n)],
  // Code: comparisons, calls and their arguments, credential pairs.
  ['"password == " repeated', (n) => repeatTo("password == ", n)],
  ['""a" == password " repeated', (n) => repeatTo('"a" == password ', n)],
  ['"password.equals(" repeated', (n) => repeatTo("password.equals(", n)],
  ['"strcmp(password, " repeated', (n) => repeatTo("strcmp(password, ", n)],
  ['"setPassword(" repeated', (n) => repeatTo("setPassword(", n)],
  ['"setPassword("a"" repeated', (n) => repeatTo('setPassword("a"', n)],
  ['"setPassword("abcd".x(" repeated', (n) => repeatTo('setPassword("abcd".x(', n)],
  ['"HTTPBasicAuth(" repeated', (n) => repeatTo("HTTPBasicAuth(", n)],
  ['"login("a", " repeated', (n) => repeatTo('login("a", ', n)],
  ['"auth=("a", " repeated', (n) => repeatTo('auth=("a", ', n)],
  // YAML block scalars after a secret's name.
  ['"password:", a pipe and a line break, repeated', (n) => repeatTo("password: |\n", n)],
  ["one block scalar of a megabyte", (n) => `password: |\n${repeatTo("  Zx9vQ2mL\n", n)}`],
  ["block scalars nested 256 deep, each inside the last", (n) => repeatTo(BLOCK_STAIRS, n)],
  ['"key:", a pipe and a comment, repeated on one line', (n) => `x ${repeatTo("key: | # ", n)}`],
  // What the command, cookie and Authorization-parameter rules read, each a near-miss.
  ['"sqlcmd -P $PW " repeated', (n) => repeatTo("sqlcmd -P $PW ", n)],
  ['" -storepass:env X -new " repeated', (n) => repeatTo(" -storepass:env X keytool -new ", n)],
  ['"ssh-keygen -N "" -P " repeated', (n) => repeatTo('ssh-keygen -N "" -P ', n)],
  ['"htpasswd -b f u " repeated', (n) => repeatTo("htpasswd -b f u ", n)],
  ['"net user a * " repeated', (n) => repeatTo("net user a * ", n)],
  [
    '"echo $TOKEN" piped into "docker login --password-stdin", repeated',
    (n) => repeatTo("echo $TOKEN | docker login --password-stdin ", n),
  ],
  ['"Cookie: sid=x; " repeated', (n) => repeatTo("Cookie: sid=deleted; ", n)],
  ['"cookie:" repeated (one long name)', (n) => repeatTo("cookie:", n)],
  ['"Set-Cookie: a=b; Expires=Wed, " repeated', (n) => repeatTo("Set-Cookie: a=b; Expires=Wed, ", n)],
  ['"curl -b a=b " repeated', (n) => repeatTo("curl -b a=b ", n)],
  ['{"name": "sid", "value": "x"} repeated', (n) => repeatTo('{"name": "sid", "value": "x"}, ', n)],
  ["cookie jar lines of no session", (n) => repeatTo(".x.test\tTRUE\t/\tFALSE\t0\ttheme\tdark\n", n)],
  ['cookies = {"sid": "x", repeated', (n) => `cookies = {${repeatTo('"sid": "x", ', n)}`],
  ['"cookies={" repeated', (n) => repeatTo("cookies={", n)],
  ["res.cookie('sid', 'x', repeated", (n) => repeatTo("res.cookie('sid', 'x', ", n)],
  ['"name": "cookie", "value": " repeated', (n) => repeatTo('"name": "cookie", "value": "', n)],
  ['" --password-stdin <<<" repeated', (n) => repeatTo(" --password-stdin <<<", n)],
  ['"Authorization: Digest a="b", " repeated', (n) => repeatTo('Authorization: Digest a="b", ', n)],
  [
    '"Authorization: Digest " + one long parameter list',
    (n) => `Authorization: Digest ${repeatTo('nonce="n0nce", ', n)}`,
  ],
  // One near miss per class of the context rules and the vendor-like tokens.
  ['" a_b-" repeated (a vendor-like start at every blank)', (n) => repeatTo(" a_b-", n)],
  ['"rnd_" + one long random run', (n) => `rnd_${repeatTo(RANDOM_RUN, n)}`],
  ['"postmark: " repeated on one line', (n) => repeatTo("postmark: ", n)],
  ['"#define IO_KEY "" repeated', (n) => repeatTo('#define IO_KEY "', n)],
  ['"vault operator unseal -a " repeated', (n) => repeatTo("vault operator unseal -a ", n)],
  ['"Jenkins-Crumb: " repeated', (n) => repeatTo("Jenkins-Crumb: ", n)],
  ['"https://a/" repeated', (n) => repeatTo("https://a/", n)],
  ['"https://a.b" + "/seg" repeated (one long URL)', (n) => `https://a.b${repeatTo("/seg", n)}`],
  ['"; Password = " repeated', (n) => repeatTo("; Password = ", n)],
  ['"; Pwd = " + one long value', (n) => `; Pwd = ${repeatTo("a b ", n)}`],
  ['"method":"walletpassphrase","params":[ repeated', (n) => repeatTo('"method":"walletpassphrase","params":[', n)],
  ['"password is \'" repeated', (n) => repeatTo("password is '", n)],
  // Token prefixes inside one long run: the vendor-like rule read 256 characters at every `-` (150 to 270 ms per MB).
  ['"sk-" repeated', (n) => repeatTo("sk-", n)],
  ['"xoxb-" repeated', (n) => repeatTo("xoxb-", n)],
  // The vendors' published formats: a fixture in one at every token, and a near miss of one's length.
  [
    '"ghp_" and 36 x\'s repeated (each a fixture in the published format)',
    (n) => repeatTo(`ghp_${"x".repeat(36)} `, n),
  ],
  [
    '"glpat-" and 21 a\'s repeated (each a length off the published one)',
    (n) => repeatTo(`glpat-${"a".repeat(21)} `, n),
  ],
  // JFrog's short shapes: `AP` and a hex digit at every token, and one run with `AP6` all through it.
  ['"AP6xxxxxxxxxx " repeated (each a short JFrog shape)', (n) => repeatTo("AP6xxxxxxxxxx ", n)],
  ['"AP6" repeated (one long run)', (n) => repeatTo("AP6", n)],
  ["\"SK\" + 32 x's repeated (Twilio's example SIDs)", (n) => repeatTo(`SK${"x".repeat(32)} `, n)],
  // Values of punctuation alone behind a secret's name, and one such value of a megabyte.
  ['"password = ,.:-!?" lines', (n) => repeatTo("password = ,.:-!?\n", n)],
  ['"password = " + one long punctuation value', (n) => `password = ${repeatTo(",.:-!?", n)}`],
]

/**
 * What each pass of redactSecrets costs on each costly input, in ms per MB: key blocks, manifests, JWTs, every
 * token and context rule (with its keyword test, as redactSecrets runs it), command flags, the assignment scan.
 * The passes run on the raw input, so each is timed on what it would meet first.
 */
export function passCosts(): string {
  const rows: string[][] = []
  for (const [label, make] of COSTLY_INPUTS) {
    const input = make(MB)
    const time = (work: () => unknown) => (median(repeatSync(work, 200, 3)) * MB) / input.length
    const mayContain = keywordTest(input)
    const costs: Array<[string, number]> = [
      ["total", time(() => redactSecrets(input))],
      ["keys", time(() => redactPrivateKeys(input))],
      ["manifests", time(() => redactSecretManifests(input))],
      ["jwt", time(() => redactJwts(input))],
      ["keyword bitmap", time(() => keywordTest(input))],
      ["commands", time(() => redactCommandFlags(input, mayContain))],
      ["cookies", time(() => redactCookies(input, mayContain))],
      ["assignments", time(() => redactAssignments(input))],
    ]
    for (const rule of SECRET_RULES) {
      if (!rule.keywords.some(mayContain) || (rule.requires && !input.includes(rule.requires))) continue
      costs.push([
        rule.name,
        time(() => {
          rule.re.lastIndex = 0
          return input.replace(rule.re, rule.replace as (match: string, ...rest: unknown[]) => string)
        }),
      ])
    }
    const top = costs
      .slice(1)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
    // Growth between a quarter of the input and all of it: 1 is linear, 2 quadratic.
    const quarter = input.slice(0, input.length / 4)
    const exponent =
      Math.log(
        median(repeatSync(() => redactSecrets(input), 200, 3)) /
          median(repeatSync(() => redactSecrets(quarter), 200, 3)),
      ) / Math.log(4)
    rows.push([
      label,
      fmtMs(costs[0]?.[1] ?? NaN),
      exponent.toFixed(2),
      ...top.map(([name, ms]) => `${name} ${fmtMs(ms)}`),
    ])
  }
  return table(["input", "total per MB", "growth", "costliest pass", "second", "third"], rows)
}

/** CPU milliseconds of one call, the least of `runs`: the machine is shared, and wall time counts the others. */
function cpuMs(work: () => unknown, runs: number): number {
  let best = Number.POSITIVE_INFINITY
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage()
    work()
    const used = process.cpuUsage(start)
    best = Math.min(best, (used.user + used.system) / 1000)
  }
  return best
}

/**
 * Each costly input at 0.5, 1, 2, 4 and 8 MB, timed in CPU time (the least of three rounds): the cost per MB at
 * 8 MB and the growth exponent from 0.5 to 8 MB (the slope of log time over log size; 1 is linear).
 */
export function scalingCosts(only?: RegExp): string {
  const rows: string[][] = []
  const sizes = [MB / 2, MB, 2 * MB, 4 * MB, 8 * MB]
  for (const [label, make] of COSTLY_INPUTS) {
    if (only && !only.test(label)) continue
    // Four times first, so the timings see compiled code: the engine compiles a shape's regexes and scans in
    // tiers over its first few megabytes, and after one run the 0.5 MB point alone read 100 to 220 ms per MB.
    const warm = make(MB / 2)
    for (let i = 0; i < 4; i++) redactSecrets(warm)
    // Each size made whole (before, a size past 1 MB repeated the first 4 KB, so "one long list" became many),
    // and the sizes timed in turn, three rounds, the least of each kept: a spell of load on the shared machine
    // then falls on every size alike instead of on the largest, where it bent the exponent.
    const inputs = sizes.map((size) => make(size))
    const best = sizes.map(() => Number.POSITIVE_INFINITY)
    for (let round = 0; round < 3; round++) {
      inputs.forEach((input, i) => {
        best[i] = Math.min(
          best[i] ?? Number.POSITIVE_INFINITY,
          cpuMs(() => redactSecrets(input), 1),
        )
      })
    }
    const points = sizes.map((size, i) => ({ size, ms: best[i] ?? Number.NaN }))
    const first = points[0]
    const last = points.at(-1)
    if (!first || !last) continue
    const exponent = Math.log(last.ms / first.ms) / Math.log(last.size / first.size)
    rows.push([label, ...points.map((p) => fmtMs((p.ms * MB) / p.size)), exponent.toFixed(2)])
  }
  return table(["input", ...sizes.map((size) => `per MB at ${size / MB} MB`), "growth 0.5→8 MB"], rows)
}

/**
 * The classes no rule read before (test/support/corpora/unseen.ts) and the vendors' published formats with a
 * stand-in's body beside what is no value (test/support/corpora/formats.ts): secrets gone, never-secret lines
 * changed.
 */
export function unseenCoverage(): string {
  const rows = [...UNSEEN_CLASSES, ...FORMAT_CLASSES].map((unseen) => {
    const gone = unseen.positives.filter(([text, secret]) => secretGone(secret, redactSecrets(text), text)).length
    const changed = unseen.negatives.filter((line) => redactSecrets(line) !== line).length
    return [
      unseen.name,
      unseen.positives.length ? `${gone} of ${unseen.positives.length}` : "—",
      `${changed} of ${unseen.negatives.length}`,
    ]
  })
  return table(["class", "secrets redacted", "never-secret lines changed"], rows)
}

if (import.meta.main && process.argv.includes("--unseen")) {
  process.stdout.write(
    `# Secret shapes no rule read before, and the vendors' published formats\n\n${unseenCoverage()}\n`,
  )
} else if (import.meta.main && process.argv.includes("--scaling")) {
  const only = process.argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length)
  process.stdout.write(
    `# CPU time of redactSecrets on the costliest inputs, 0.5 to 8 MB\n\n${scalingCosts(only ? new RegExp(only) : undefined)}\n`,
  )
} else if (import.meta.main && process.argv.includes("--passes")) {
  process.stdout.write(`# What each redaction pass costs on the costliest inputs\n\n${passCosts()}\n`)
} else if (import.meta.main) {
  const { text, targets } = redactionCoverage()
  process.stdout.write(`# Redaction coverage\n\n${text}\n\n${table(["target", "goal", "measured", ""], targets)}\n`)
}
