/**
 * Sentence boundaries on treebank text the splitter was not written against: Universal Dependencies
 * English-EWT (web text: blogs, reviews, e-mail, answers) and German-GSD (news, wiki, reviews).
 *
 *   bun bench/sentences.ts --ewt=/path/to/UD_English-EWT --gsd=/path/to/UD_German-GSD [--split=test|dev] [--verbose]
 *   bun bench/sentences.ts --faithbench=/path/to/FaithBench
 *   RFE_UD_EWT=... RFE_UD_GSD=... bun bench/sentences.ts
 *
 * Each path is a bare git mirror or a checkout of the UniversalDependencies repository; the `.conllu` file of
 * the chosen split is read at run time (`# text =` lines are the sentences, `# newpar` starts a paragraph) and
 * nothing of it is copied here. `dev` is the split the rules were looked at against; `test` is the figure.
 *
 * Cases: English-EWT's paragraphs as marked; German-GSD marks none, so each two consecutive sentences make a
 * case. Only cases whose every sentence ends in `.`, `!`, `?` or `…` (a closing quote or bracket may follow)
 * are kept: a boundary with no punctuation (a headline, a signature) is not one a reply's sentences have.
 *
 * Measured on each case's text as one reply:
 * - exact: the claims equal the case's checkable sentences, compared as bench/golden-rules.ts compares
 *   (lenient: case folded, punctuation and list markers read as spaces);
 * - merged: boundaries of the case that the splitter missed (two sentences judged as one claim);
 * - split: boundaries the splitter made inside a sentence (one sentence judged as two pieces).
 * Boundaries are compared as word offsets of the split before the checkable filter.
 */

import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { notAClaim } from "../src/claims/checkable.ts"
import { eachProseBlock, stripInlineMarkdown } from "../src/claims/prose.ts"
import { joinLines, sentences, splitClaims } from "../src/claims/split.ts"

/** A sentence the plugin would judge. */
const isCheckable = (sentence: string) => notAClaim(sentence) === undefined

export interface SentenceCase {
  id: string
  sentences: string[]
}

const TERMINAL_RE = /[.!?…]["'”’»«)\]]*$/

function readRepoFile(repo: string, path: string): string {
  if (existsSync(join(repo, path))) return readFileSync(join(repo, path), "utf8")
  return execFileSync("git", ["--git-dir", repo, "show", `HEAD:${path}`], { encoding: "utf8", maxBuffer: 1 << 28 })
}

/** The sentences of a `.conllu` file, grouped by `# newpar`, or in twos where the file marks no paragraphs. */
export function readConllu(text: string, pairs: boolean): SentenceCase[] {
  const groups: SentenceCase[] = []
  let current: SentenceCase | undefined
  for (const line of text.split("\n")) {
    if (!pairs && line.startsWith("# newpar")) current = undefined
    const sentence = /^# text = (.*)$/.exec(line)?.[1]?.trim()
    if (sentence === undefined) continue
    if (!current || (pairs && current.sentences.length === 2)) {
      current = { id: `${groups.length + 1}`, sentences: [] }
      groups.push(current)
    }
    current.sentences.push(sentence)
  }
  return groups.filter((group) => group.sentences.length > 1 && group.sentences.every((s) => TERMINAL_RE.test(s)))
}

const lenient = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
const words = (text: string) => lenient(text).split(" ").filter(Boolean).length

const segmenter = new Intl.Segmenter(undefined, { granularity: "sentence" })

/** The splitter's sentences before the checkable filter, the way `splitClaims` forms them. */
function rawSentences(text: string): string[] {
  return Array.from(eachProseBlock(text)).flatMap((block) => [
    ...sentences(stripInlineMarkdown(joinLines(block.lines), true), segmenter),
  ])
}

/** Word offsets at which the sentences of a list end, the last excluded. */
function boundaries(list: readonly string[]): number[] {
  const out: number[] = []
  let at = 0
  for (const sentence of list.slice(0, -1)) {
    at += words(sentence)
    out.push(at)
  }
  return out
}

export interface CaseResult {
  exact: boolean
  merged: number
  split: number
  aligned: boolean
  got: string[]
}

/**
 * A list marker that opens a case ("1. While …", "(a) For …", "b) The …", "- The …"): the splitter reads it as
 * the marker of a list item, as at the start of any line, and drops it from the claim, so it is left out of the
 * treebank's first sentence too (bench/golden-rules.ts does the same). Digits in brackets ("(14) As …") are
 * no marker to the splitter and stay.
 */
const LEADING_MARKER_RE = /^\s*(?:[-*+]|\d{1,3}(?:\.\)|[.)])|\(?(?:[a-zA-Z]|[ivx]{1,4})\)|[ai]\.)\s+(?=\S)/u

export function measureCase(entry: SentenceCase): CaseResult {
  const text = entry.sentences.join(" ")
  const gold = entry.sentences.map((sentence, i) => (i === 0 ? sentence.replace(LEADING_MARKER_RE, "") : sentence))
  const claims = splitClaims(text, Number.MAX_SAFE_INTEGER, segmenter).claims.map((claim) => lenient(claim.text))
  const want = gold.filter(isCheckable).map(lenient)
  const exact = claims.length === want.length && claims.every((claim, i) => claim === want[i])
  const raw = rawSentences(text)
  const aligned = words(raw.join(" ")) === words(gold.join(" "))
  const expected = new Set(boundaries(gold))
  const produced = new Set(boundaries(raw))
  return {
    exact,
    merged: aligned ? [...expected].filter((at) => !produced.has(at)).length : 0,
    split: aligned ? [...produced].filter((at) => !expected.has(at)).length : 0,
    aligned,
    got: raw,
  }
}

export const UD_SETS = [
  { name: "English-EWT", option: "ewt", env: "RFE_UD_EWT", file: "en_ewt-ud-SPLIT.conllu", pairs: false },
  { name: "German-GSD", option: "gsd", env: "RFE_UD_GSD", file: "de_gsd-ud-SPLIT.conllu", pairs: true },
  // Sets the rules were never looked at against: GUM (eight genres), PUD (news and wiki), HDT (news, IT).
  { name: "English-GUM", option: "gum", env: "RFE_UD_GUM", file: "en_gum-ud-SPLIT.conllu", pairs: false },
  { name: "English-PUD", option: "pud-en", env: "RFE_UD_PUD_EN", file: "en_pud-ud-test.conllu", pairs: true },
  { name: "German-PUD", option: "pud-de", env: "RFE_UD_PUD_DE", file: "de_pud-ud-test.conllu", pairs: true },
  { name: "German-HDT", option: "hdt", env: "RFE_UD_HDT", file: "de_hdt-ud-SPLIT.conllu", pairs: true },
  // Added later, also never looked at: LinES (fiction, manuals, essays), ParTUT (law, wiki, talks), LIT (essays).
  // LinES and ParTUT mark no paragraphs, so they are read in twos; LIT marks its fragments.
  { name: "English-LinES", option: "lines", env: "RFE_UD_LINES", file: "en_lines-ud-SPLIT.conllu", pairs: true },
  { name: "English-ParTUT", option: "partut", env: "RFE_UD_PARTUT", file: "en_partut-ud-SPLIT.conllu", pairs: true },
  { name: "German-LIT", option: "lit", env: "RFE_UD_LIT", file: "de_lit-ud-test.conllu", pairs: false },
  // GENTLE: eight genres far from news (dictionary entries, esports, legal, medical, poetry, proofs, syllabi, threats).
  { name: "English-GENTLE", option: "gentle", env: "RFE_UD_GENTLE", file: "en_gentle-ud-test.conllu", pairs: false },
] as const

export function measureSet(cases: readonly SentenceCase[]) {
  const results = cases.map((entry) => ({ entry, result: measureCase(entry) }))
  return {
    results,
    cases: cases.length,
    boundaries: cases.reduce((sum, entry) => sum + entry.sentences.length - 1, 0),
    exact: results.filter(({ result }) => result.exact).length,
    merged: results.reduce((sum, { result }) => sum + result.merged, 0),
    split: results.reduce((sum, { result }) => sum + result.split, 0),
    unaligned: results.filter(({ result }) => !result.aligned).length,
  }
}

/**
 * FaithBench (vectara/FaithBench, `data_for_release/batch_*.json`): summaries with annotated hallucinated
 * spans. A span is covered when it stands whole inside one claim that reaches the judge, both compared
 * leniently (markup such as `*Wicked*` is stripped from claims): a span cut by a boundary, or left in a
 * piece that is dropped, is one the judge cannot see as written.
 */
export function faithBenchCoverage(samples: ReadonlyArray<{ summary: string; spans: Array<[number, number]> }>) {
  let spans = 0
  let covered = 0
  for (const { summary, spans: marked } of samples) {
    const claims = splitClaims(summary, Number.MAX_SAFE_INTEGER, segmenter).claims.map(
      (claim) => ` ${lenient(claim.text)} `,
    )
    for (const [start, end] of marked) {
      spans++
      const span = ` ${lenient(summary.slice(start, end))} `
      if (span.trim() && claims.some((claim) => claim.includes(span))) covered++
    }
  }
  return { spans, covered }
}

function readFaithBench(repo: string) {
  const listing = existsSync(join(repo, "data_for_release"))
    ? readdirSync(join(repo, "data_for_release")).map((name) => `data_for_release/${name}`)
    : execFileSync("git", ["--git-dir", repo, "ls-tree", "-r", "--name-only", "HEAD", "data_for_release"], {
        encoding: "utf8",
      }).split("\n")
  return listing
    .filter((path) => /batch_\d+\.json$/.test(path))
    .sort()
    .flatMap((path) => {
      const samples: Array<{
        summary?: string
        annotations?: Array<{ summary_start?: number; summary_end?: number }>
      }> = JSON.parse(readRepoFile(repo, path)).samples ?? []
      return samples.map((sample) => ({
        summary: sample.summary ?? "",
        spans: (sample.annotations ?? []).flatMap(
          (a): Array<[number, number]> =>
            typeof a.summary_start === "number" && typeof a.summary_end === "number" && a.summary_end > a.summary_start
              ? [[a.summary_start, a.summary_end]]
              : [],
        ),
      }))
    })
}

async function main() {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
  const split = arg("split") ?? "test"
  const verbose = process.argv.includes("--verbose")
  const print = (text = "") => process.stdout.write(`${text}\n`)
  let missing = true
  for (const set of UD_SETS) {
    const repo = arg(set.option) ?? process.env[set.env]
    if (!repo) continue
    missing = false
    const cases = readConllu(readRepoFile(repo, set.file.replace("SPLIT", split)), set.pairs)
    const started = performance.now()
    const m = measureSet(cases)
    const ms = performance.now() - started
    const pct = ((100 * m.exact) / m.cases).toFixed(1)
    print(
      `## ${set.name} (${split}): ${m.exact}/${m.cases} cases exact (${pct} %); ${m.boundaries} boundaries: ` +
        `${m.merged} merged, ${m.split} split inside a sentence; ${m.unaligned} unaligned; ${ms.toFixed(0)} ms`,
    )
    if (!verbose) continue
    for (const { entry, result } of m.results) {
      if (result.exact) continue
      print(`  #${entry.id} merged ${result.merged} split ${result.split}`)
      print(`    want ${JSON.stringify(entry.sentences)}`)
      print(`    got  ${JSON.stringify(result.got)}`)
    }
  }
  const faithbench = arg("faithbench") ?? process.env.RFE_FAITHBENCH
  if (faithbench) {
    missing = false
    const samples = readFaithBench(faithbench)
    const { spans, covered } = faithBenchCoverage(samples)
    print(
      `## FaithBench: ${samples.length} summaries, ${spans} annotated spans, ${covered} inside one claim (${((100 * covered) / spans).toFixed(1)} %)`,
    )
  }
  if (missing) {
    process.stderr.write("usage: bun bench/sentences.ts --ewt=/path/to/UD_English-EWT --gsd=/path/to/UD_German-GSD\n")
    process.exit(2)
  }
}

if (import.meta.main) await main()
