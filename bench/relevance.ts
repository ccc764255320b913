/**
 * The relevance gate's recall on FaithBench: of the spans people marked as hallucinated in LLM summaries, how
 * many sit in a statement the gate would still send to the judge.
 *
 *   bun bench/relevance.ts /path/to/vectara+FaithBench/repo     (or RFE_FAITHBENCH=…)
 *
 * FaithBench (vectara/FaithBench, NAACL 2025) holds summaries of news and Wikipedia passages written by ten
 * LLMs, with every span that annotators found unfaithful to the passage, labelled Unwanted (intrinsic or
 * extrinsic hallucination), Questionable or Benign. It is read at run time from a bare git mirror or a
 * checkout (`data_for_release/batch_*.json`); nothing of it is kept in this repository.
 *
 * Each summary goes through the plugin's own splitter as a reply would; its passage is the one source, indexed
 * as the gate indexes a reply's sources. A span counts as sent when the statement it lies in shares a term with
 * the passage (or, where the statement takes its referent from the sentences before it, those do). Spans in a
 * sentence the splitter does not take as a statement ("Here is a summary:") are counted apart: the gate never
 * sees them. The same span marked by several annotators counts once. Prints counts and shares only.
 */

import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { splitClaims } from "../src/claims/split.ts"
import { indexSources, speaksTo } from "../src/judge/relevance.ts"
import type { Claim } from "../src/state/shapes.ts"

interface Annotation {
  label: string[]
  summary_span: string | null
  summary_start: number | null
  summary_end: number | null
}

interface Sample {
  sample_id: number
  source: string
  summary: string
  annotations: Annotation[]
}

/** The batch files of a bare mirror or a checkout, each read when its turn comes. */
function batches(repo: string): Array<{ name: string; read: () => string }> {
  if (existsSync(join(repo, "HEAD")) && !existsSync(join(repo, ".git"))) {
    const paths = execFileSync("git", ["--git-dir", repo, "ls-tree", "-r", "--name-only", "HEAD"], { encoding: "utf8" })
      .split("\n")
      .filter((path) => /^data_for_release\/batch_\d+\.json$/.test(path))
    return paths.map((path) => ({
      name: path,
      read: () =>
        execFileSync("git", ["--git-dir", repo, "show", `HEAD:${path}`], { encoding: "utf8", maxBuffer: 1 << 26 }),
    }))
  }
  const dir = join(repo, "data_for_release")
  return readdirSync(dir)
    .filter((name) => /^batch_\d+\.json$/.test(name))
    .map((name) => ({ name, read: () => readFileSync(join(dir, name), "utf8") }))
}

/** Where each statement stands in the summary: found in order, its words as the splitter left them. */
function placeClaims(summary: string, claims: readonly Claim[]): Array<{ claim: Claim; start: number; end: number }> {
  const placed: Array<{ claim: Claim; start: number; end: number }> = []
  let from = 0
  for (const claim of claims) {
    const probe = claim.text.slice(0, 40)
    const at = summary.indexOf(probe, from)
    if (at < 0) continue
    placed.push({ claim, start: at, end: at + claim.text.length })
    from = at + 1
  }
  return placed
}

type Kind = "Unwanted" | "Questionable" | "Benign"

const kindOf = (labels: readonly string[]): Kind | undefined =>
  labels.some((label) => label.startsWith("Unwanted"))
    ? "Unwanted"
    : labels.includes("Questionable")
      ? "Questionable"
      : labels.includes("Benign")
        ? "Benign"
        : undefined

interface Tally {
  spans: number
  sent: number
  sentAlways: number
  notAClaim: number
  missed: string[]
}

const newTally = (): Tally => ({ spans: 0, sent: 0, sentAlways: 0, notAClaim: 0, missed: [] })

function main() {
  const repo = process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? process.env.RFE_FAITHBENCH
  if (!repo || !existsSync(repo)) {
    process.stderr.write("usage: bun bench/relevance.ts /path/to/vectara+FaithBench/repo (or RFE_FAITHBENCH)\n")
    process.exit(2)
  }
  const verbose = process.argv.includes("--verbose")
  const tallies = new Map<Kind, Tally>([
    ["Unwanted", newTally()],
    ["Questionable", newTally()],
    ["Benign", newTally()],
  ])
  let samples = 0
  let statements = 0
  let held = 0
  const started = performance.now()
  for (const batch of batches(repo)) {
    const data = JSON.parse(batch.read()) as { samples: Sample[] }
    for (const sample of data.samples) {
      samples++
      const index = indexSources([sample.source])
      const { claims } = splitClaims(sample.summary, 1000)
      const placed = placeClaims(sample.summary, claims)
      statements += claims.length
      held += claims.filter((claim) => !speaksTo(index, claim)).length
      const seen = new Set<string>()
      for (const annotation of sample.annotations) {
        const kind = kindOf(annotation.label)
        if (!kind || annotation.summary_start === null) continue
        const key = `${kind}:${annotation.summary_start}:${annotation.summary_end}`
        if (seen.has(key)) continue
        seen.add(key)
        const tally = tallies.get(kind) as Tally
        tally.spans++
        const start = annotation.summary_start
        const end = annotation.summary_end ?? start + 1
        const home = placed.find((item) => item.start < end && start < item.end)
        if (!home) {
          tally.notAClaim++
          continue
        }
        if (speaksTo(index, home.claim)) tally.sent++
        else tally.missed.push(`${batch.name}#${sample.sample_id}: ${JSON.stringify(home.claim.text)}`)
        if (speaksTo(index, home.claim, "referent")) tally.sentAlways++
      }
    }
  }
  const print = (text = "") => process.stdout.write(`${text}\n`)
  const pct = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(2)} %` : "—")
  print(`## Relevance gate on FaithBench: ${samples} summaries, ${statements} statements`)
  print()
  print(
    "| spans marked | spans | in a statement | still sent | recall | context only for a referent | not a statement |",
  )
  print("|---|---|---|---|---|---|---|")
  for (const [kind, tally] of tallies) {
    const inClaims = tally.spans - tally.notAClaim
    print(
      `| ${kind} | ${tally.spans} | ${inClaims} | ${tally.sent} | **${pct(tally.sent, inClaims)}** | ` +
        `${pct(tally.sentAlways, inClaims)} | ${tally.notAClaim} |`,
    )
  }
  print()
  print(`Statements the gate holds back: ${held} of ${statements} (${pct(held, statements)}).`)
  print(`(${((performance.now() - started) / 1000).toFixed(1)} s)`)
  const unwanted = tallies.get("Unwanted") as Tally
  const recall = unwanted.sent / Math.max(1, unwanted.spans - unwanted.notAClaim)
  print(`Target: recall on Unwanted spans ≥ 99 %: ${recall >= 0.99 ? "met" : "MISSED"}`)
  if (verbose || unwanted.missed.length <= 20) {
    print()
    for (const [kind, tally] of tallies) for (const line of tally.missed) print(`- ${kind} held back: ${line}`)
  }
}

if (import.meta.main) main()
