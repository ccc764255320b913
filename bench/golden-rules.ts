/**
 * The Golden Rules sentence-boundary set, measured on what the plugin sends to the judge.
 *
 *   bun bench/golden-rules.ts /path/to/pySBD      (a bare git mirror or a checkout of nipunsadvilkar/pySBD)
 *   RFE_GOLDEN_RULES_REPO=/path/to/pySBD bun bench/golden-rules.ts [--verbose]
 *
 * The cases are read at run time from that repository and never copied into this one: the 48 English rules
 * of `benchmarks/english_golden_rules.py`, and the German cases of `tests/lang/test_deutsch.py`
 * (`GOLDEN_DE_RULES_TEST_CASES` and `DE_CLEAN_RULES_TEST_CASES`, one case per distinct input: 30).
 *
 * What "match" means (docs/claims.md says why):
 * - Input: the case text is the whole reply, passed to `splitClaims` with no cap.
 * - Expected: the case's sentences that `isCheckable` accepts. Questions, sign-offs and pieces too short to
 *   judge never reach the judge, so they are neither required nor counted.
 * - Compared (lenient, the headline figure): list markers (`•`, `1.`, `1.)`, `2)`, `a.`, `(b)`) are removed
 *   wherever they stand, case is folded, every character that is neither letter nor digit counts as a space,
 *   and whitespace is collapsed. A boundary in the wrong place still fails, because the words then land in
 *   the wrong claim; where an ellipsis or a stray marker ends up does not.
 * - Compared (strict): whitespace collapsed and a list marker removed at the start, nothing else: case,
 *   punctuation, and a marker left at the end of the previous claim all count.
 * - A case passes when the two lists are equal, in order.
 * - Raw ICU (exact): `Intl.Segmenter` alone on the input, each segment trimmed, against all expected sentences
 *   exactly (pySBD's own benchmark compares this way). Raw ICU (lenient): its checkable segments, compared as
 *   the claims are, to show what the plugin's own rules add.
 */

import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { notAClaim } from "../src/claims/checkable.ts"
import { splitClaims } from "../src/claims/split.ts"

/** A sentence the plugin would judge. */
const isCheckable = (sentence: string) => notAClaim(sentence) === undefined

type Case = { text: string; expected: string[] }

// ── Reading the cases: a small reader for the Python literals they are written in ──

type PyValue = string | PyValue[] | null

/** Reads one Python literal (strings, lists, tuples, calls as their positional arguments) from `source`. */
function readPython(source: string, start: number): PyValue {
  let at = start
  const skip = () => {
    for (;;) {
      const ws = /^(?:\s+|#[^\n]*)/.exec(source.slice(at, at + 4096))
      if (!ws) return
      at += ws[0].length
    }
  }
  const string = (): string => {
    const quote = source.startsWith('"""', at) || source.startsWith("'''", at) ? source.slice(at, at + 3) : source[at]
    if (!quote) throw new Error(`unexpected end at ${at}`)
    at += quote.length
    let out = ""
    while (!source.startsWith(quote, at)) {
      const char = source[at++]
      if (char === undefined) throw new Error("unterminated string")
      if (char !== "\\") {
        out += char
        continue
      }
      const next = source[at++] ?? ""
      const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', "\n": "" }
      if (next in simple) out += simple[next]
      else if (next === "u" || next === "x") {
        const size = next === "u" ? 4 : 2
        out += String.fromCodePoint(Number.parseInt(source.slice(at, at + size), 16))
        at += size
      } else out += `\\${next}`
    }
    at += quote.length
    return out
  }
  const value = (): PyValue => {
    skip()
    const char = source[at]
    if (char === '"' || char === "'") {
      let out = string()
      // Adjacent literals are one string in Python.
      for (skip(); source[at] === '"' || source[at] === "'"; skip()) out += string()
      return out
    }
    if (char === "[" || char === "(") {
      at++
      return items(char === "[" ? "]" : ")")
    }
    const name = /^[A-Za-z_][\w.]*/.exec(source.slice(at, at + 200))
    if (!name) throw new Error(`unexpected ${JSON.stringify(source.slice(at, at + 20))} at ${at}`)
    at += name[0].length
    skip()
    if (source[at] !== "(") return null
    at++
    return items(")")
  }
  const items = (close: string): PyValue[] => {
    const out: PyValue[] = []
    for (;;) {
      skip()
      if (source[at] === close) {
        at++
        return out
      }
      const keyword = /^[A-Za-z_]\w*\s*=(?!=)/.exec(source.slice(at, at + 200))
      if (keyword) {
        // Keyword arguments (`marks=...`) carry no case data.
        at += keyword[0].length
        value()
      } else out.push(value())
      skip()
      if (source[at] === ",") at++
    }
  }
  return value()
}

function casesOf(source: string, name: string): Case[] {
  const at = source.search(new RegExp(`^${name}\\s*=`, "m"))
  if (at < 0) throw new Error(`${name} not found`)
  const list = readPython(source, source.indexOf("=", at) + 1)
  if (!Array.isArray(list)) throw new Error(`${name} is not a list`)
  return list.map((entry) => {
    const [text, expected] = Array.isArray(entry) ? entry : []
    if (typeof text !== "string" || !Array.isArray(expected) || !expected.every((s) => typeof s === "string")) {
      throw new Error(`${name}: an entry is not (text, [sentences])`)
    }
    return { text, expected: expected as string[] }
  })
}

function readRepoFile(repo: string, path: string): string {
  if (existsSync(join(repo, path))) return readFileSync(join(repo, path), "utf8")
  return execFileSync("git", ["--git-dir", repo, "show", `HEAD:${path}`], { encoding: "utf8", maxBuffer: 1 << 26 })
}

function loadCases(repo: string): Record<"English" | "German", Case[]> {
  const english = casesOf(readRepoFile(repo, "benchmarks/english_golden_rules.py"), "GOLDEN_EN_RULES")
  const deutsch = readRepoFile(repo, "tests/lang/test_deutsch.py")
  const seen = new Set<string>()
  const german = [
    ...casesOf(deutsch, "GOLDEN_DE_RULES_TEST_CASES"),
    ...casesOf(deutsch, "DE_CLEAN_RULES_TEST_CASES"),
  ].filter((entry) => !seen.has(entry.text) && seen.add(entry.text))
  return { English: english, German: german }
}

// ── Comparing ──

const MARKER = String.raw`[•‣⁃◦▪]*\s*(?:\(?(?:\d{1,3}|[a-z]|[ivx]{1,4})[.)]+\)?)?`
const ANY_MARKER_RE = new RegExp(`(?<!\\S)${MARKER}(?=\\s|$)`, "gu")
const LEADING_MARKER_RE = new RegExp(`^\\s*${MARKER}(?=\\s|$)`, "u")

const lenient = (text: string) =>
  text
    .replace(ANY_MARKER_RE, " ")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
const strict = (text: string) => text.replace(LEADING_MARKER_RE, "").replace(/\s+/g, " ").trim()

const segmenter = new Intl.Segmenter(undefined, { granularity: "sentence" })
const claimsOf = (text: string) => splitClaims(text, Number.MAX_SAFE_INTEGER, segmenter).claims.map((c) => c.text)
const icuOf = (text: string) => [...segmenter.segment(text)].map((s) => s.segment.trim()).filter(Boolean)
const same = (a: string[], b: string[]) => a.length === b.length && a.every((item, i) => item === b[i])

type Measure = { name: string; got: (entry: Case) => string[]; want: (entry: Case) => string[] }

const MEASURES: Measure[] = [
  {
    name: "claims (lenient)",
    got: (entry) => claimsOf(entry.text).map(lenient),
    want: (entry) => entry.expected.filter(isCheckable).map(lenient),
  },
  {
    name: "claims (strict)",
    got: (entry) => claimsOf(entry.text).map(strict),
    want: (entry) => entry.expected.filter(isCheckable).map(strict),
  },
  { name: "raw ICU (exact)", got: (entry) => icuOf(entry.text), want: (entry) => entry.expected.map((s) => s.trim()) },
  {
    name: "raw ICU (lenient)",
    got: (entry) => icuOf(entry.text).filter(isCheckable).map(lenient),
    want: (entry) => entry.expected.filter(isCheckable).map(lenient),
  },
]

// ── Report ──

const repo = process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? process.env.RFE_GOLDEN_RULES_REPO
if (!repo) {
  process.stderr.write("usage: bun bench/golden-rules.ts /path/to/pySBD (or set RFE_GOLDEN_RULES_REPO)\n")
  process.exit(2)
}
const verbose = process.argv.includes("--verbose")
const print = (text = "") => process.stdout.write(`${text}\n`)
const clip = (text: string) => (text.length > 110 ? `${text.slice(0, 107)}...` : text)

const sets = loadCases(repo)
for (const measure of MEASURES) {
  const counts = Object.entries(sets).map(([language, cases]) => {
    const failing = cases
      .map((entry, i) => ({ entry, number: i + 1, got: measure.got(entry), want: measure.want(entry) }))
      .filter((result) => !same(result.got, result.want))
    return { language, failing, passed: cases.length - failing.length, total: cases.length }
  })
  print(`## ${measure.name}: ${counts.map((c) => `${c.language} ${c.passed}/${c.total}`).join(", ")}`)
  if (measure.name.startsWith("raw") && !verbose) continue
  for (const { language, failing } of counts) {
    for (const { entry, number, got } of failing) {
      print(`  ${language} #${number}: ${JSON.stringify(clip(entry.text))}`)
      const raw = measure.name.startsWith("raw")
      print(`    want ${JSON.stringify((raw ? entry.expected : entry.expected.filter(isCheckable)).map(clip))}`)
      print(`    got  ${JSON.stringify((raw ? got : claimsOf(entry.text)).map(clip))}`)
    }
  }
  print()
}
