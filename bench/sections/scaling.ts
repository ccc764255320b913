// Section 8 of `bun bench/run.ts`: adversarial inputs, each timed by size to show it grows linearly.
import { parseImports, parseInstalls } from "../../src/capture/docpull.ts"
import { dropSensitiveLines } from "../../src/capture/sensitive.ts"
import { splitClaims } from "../../src/claims/split.ts"
import { DEFAULTS } from "../../src/config/config.ts"
import { normalizeSources } from "../../src/judge/gate.ts"
import { indexSources, speaksTo } from "../../src/judge/relevance.ts"
import { fmtBytes, fmtMs, KB, MB, repeatTo, SUPER_LINEAR, scaling, table, tsCode } from "../lib.ts"

import type { Report } from "./common.ts"

/** "1) a 2) a 3) a ..." on one line, `size` characters long: every marker is the next item of one list. */
function inlineList(size: number): string {
  const items: string[] = []
  for (let i = 1, length = 0; length < size; i++) {
    items.push(`${i}) a`)
    length += items.at(-1)?.length ?? 0
  }
  return items.join(" ").slice(0, size)
}

/** Words that never repeat ("w0 w1 w2 …"), `size` characters long: every one is a new term of the index. */
function distinctWords(size: number): string {
  const words: string[] = []
  for (let i = 0, length = 0; length < size; i++) {
    words.push(`w${i.toString(36)}`)
    length += (words.at(-1)?.length ?? 0) + 1
  }
  return words.join(" ").slice(0, size)
}

/** Fifty statements of a reply about code: what the gate looks up against the sources. */
function claimsOfGate(): string {
  const lines: string[] = []
  for (let i = 0; i < 50; i++)
    lines.push(`The handler${i} in src/module${i}.ts retries ${i + 2} times before it fails.`)
  return lines.join(" ")
}

export async function benchScaling({ print, findings }: Report) {
  print("## 8. Super-linear check: other text paths on adversarial input")
  print()
  const premise = (text: string) => [
    { id: "S1", tool: "bash", origin: "machine" as const, ref: "$ run", path: undefined, text },
  ]
  const split = (input: string) => splitClaims(input, DEFAULTS.maxClaims)
  const cases: Array<[string, string, (input: string) => unknown, (size: number) => string]> = [
    ["splitClaims (idle)", '"Dr. " repeated, one paragraph', split, (n) => repeatTo("Dr. ", n)],
    ["splitClaims (idle)", '"1. " repeated, one paragraph', split, (n) => repeatTo("1. ", n)],
    ["splitClaims (idle)", '" _x" repeated, one paragraph', split, (n) => repeatTo(" _x", n)],
    ["splitClaims (idle)", '"![a" repeated (unclosed image links)', split, (n) => repeatTo("![a", n)],
    ["splitClaims (idle)", '"[a](" repeated (unclosed link targets)', split, (n) => repeatTo("[a](", n)],
    ["splitClaims (idle)", '"**a " repeated (unclosed bold)', split, (n) => repeatTo("**a ", n)],
    ["splitClaims (idle)", '"E. " repeated (a chain of initials)', split, (n) => repeatTo("E. ", n)],
    ["splitClaims (idle)", '"• " repeated (one line of empty bullets)', split, (n) => repeatTo("• ", n)],
    ["splitClaims (idle)", '"1) a 2) a ..." (one line, one list)', split, (n) => inlineList(n)],
    ["splitClaims (idle)", '". `" repeated (code after a full stop)', split, (n) => repeatTo(". `", n)],
    ["splitClaims (idle)", '"x.\\n" lines (a boundary per line)', split, (n) => repeatTo("x.\n", n)],
    ["splitClaims (idle)", '"Did x I. " repeated (cut questions)', split, (n) => repeatTo("Did x I. ", n)],
    ["splitClaims (idle)", '"ran. the " repeated (lowercase starts)', split, (n) => repeatTo("ran. the ", n)],
    ["splitClaims (idle)", '"\\"A. B. " repeated (open quotations)', split, (n) => repeatTo('"A. B. ', n)],
    ["splitClaims (idle)", '"`<b>` " repeated (code among markup)', split, (n) => repeatTo("`<b>` **x ", n)],
    [
      "normalizeSources (idle)",
      "a premise that is one run of dots",
      (t) => normalizeSources(premise(t)),
      (n) => `${repeatTo(".", n)}x`,
    ],
    [
      "normalizeSources (idle)",
      'a premise of ", )" runs',
      (t) => normalizeSources(premise(t)),
      (n) => `${repeatTo(", )", n)}x`,
    ],
    [
      "parseImports (tool.execute.before)",
      ".py file of blank lines",
      (t) => parseImports(t, "a.py"),
      (n) => repeatTo("\n", n),
    ],
    [
      "parseImports (tool.execute.before)",
      ".py file of indented blank lines",
      (t) => parseImports(t, "a.py"),
      (n) => repeatTo("    \n", n),
    ],
    [
      "parseImports (tool.execute.before)",
      '.ts file of "export const x = 1" lines',
      (t) => parseImports(t, "a.ts"),
      (n) => repeatTo("export const x = 1\n", n),
    ],
    [
      "parseImports (tool.execute.before)",
      '.ts file of "import x" lines, no from',
      (t) => parseImports(t, "a.ts"),
      (n) => repeatTo("import x\n", n),
    ],
    ["parseInstalls (tool.execute.before)", '"npm i a && " repeated', parseInstalls, (n) => repeatTo("npm i a && ", n)],
    [
      "dropSensitiveLines (grep capture)",
      '"a:" lines',
      (t) => dropSensitiveLines(t),
      (n) => repeatTo("src/a.ts:\n  Line 1: x\n", n),
    ],
  ]
  // The relevance gate: one index of the sources per reply, then a set lookup per word of each statement, so a
  // reply of 50 statements costs the index and 50 short lookups, however long the sources.
  const statements = splitClaims(claimsOfGate(), DEFAULTS.maxClaims).claims
  const gate = (text: string) => {
    const index = indexSources([text], [`ran \`grep -rn ${text.slice(0, 40)}\``])
    for (const claim of statements) speaksTo(index, claim)
  }
  cases.push(
    ["relevance gate (idle)", "TypeScript sources, 50 statements", gate, (n) => tsCode(n, { seed: 3 })],
    ["relevance gate (idle)", '"aB" repeated (one camelCase name)', gate, (n) => repeatTo("aB", n)],
    ["relevance gate (idle)", '"1." repeated (one long version)', gate, (n) => repeatTo("1.", n)],
    ["relevance gate (idle)", '"1,000" repeated (one grouped number)', gate, (n) => repeatTo("1,000", n)],
    ["relevance gate (idle)", "distinct words (a growing index)", gate, (n) => distinctWords(n)],
  )
  const rows: string[][] = []
  for (const [where, label, work, make] of cases) {
    const result = scaling(work, make, [KB, 4 * KB, 16 * KB, 64 * KB, 256 * KB, MB], 600)
    const last = result.points.at(-1)
    // Too slow for even two sizes within the budget counts as super-linear too.
    const superLinear = !(result.exponent <= SUPER_LINEAR)
    rows.push([
      where,
      label,
      result.points.map((p) => `${fmtBytes(p.size)}: ${fmtMs(p.ms)}`).join(", "),
      result.exponent.toFixed(2),
      superLinear ? `SUPER-LINEAR${result.stoppedEarly ? " (stopped)" : ""}` : "linear",
    ])
    if (superLinear) {
      findings.push(
        `${where}: ${label}: ${fmtMs(last?.ms ?? NaN)} at ${fmtBytes(last?.size ?? 0)}, growth exponent ${result.exponent.toFixed(2)}`,
      )
    }
  }
  print(table(["path", "input", "time by size", "exponent", ""], rows))
  print()
}
