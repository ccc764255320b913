/**
 * Redaction on the public scanners' own test data: `bun bench/peers.ts [mirrors]` (or RFE_PEERS_DIR=…).
 *
 * Reads, at run time, bare git mirrors of gitleaks/gitleaks, secretlint/secretlint and Yelp/detect-secrets
 * (as `<mirrors>/<owner>+<name>/repo`) and takes from them their rule tests' true positives and negatives:
 * gitleaks' `tps`/`fps` lists in cmd/generate/config/rules/*.go (its sample generators and regexes evaluated
 * here), secretlint's snapshot fixtures, detect-secrets' plugin tests. Nothing of theirs is kept in this
 * repository: without the mirrors the script says so and stops. Each sample goes through the plugin's real
 * capture path on the fake host twice, as opencode's `read` of a file and as a `webfetch` of the same text,
 * and what reached the premise is cut back out and compared. Prints shares and counts only.
 *
 * With `--ordinary <owner+name>,…` it also reads every text file of those mirrors through `read` and prints
 * the lines that changed (for a person to judge which hold a secret).
 */

import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { REDACTED } from "../src/capture/redact/values.ts"
import { drawer } from "../test/support/corpora/secrets.ts"
import { readOutput } from "../test/support/fixtures.ts"
import { createHost } from "../test/support/host.ts"
import { type PeerSample, whyNegative } from "../test/support/peers.ts"
import { peerSamples } from "./peers-extract.ts"

const ROOT =
  process.env.RFE_PEERS_DIR ?? process.argv.find((arg, i) => i >= 2 && !arg.startsWith("--")) ?? "/work/.mirror"
export const MIRRORS = {
  gitleaks: "gitleaks+gitleaks/repo",
  secretlint: "secretlint+secretlint/repo",
  detectSecrets: "Yelp+detect-secrets/repo",
} as const

export type Outcome = "redacted" | "partial" | "kept"

/**
 * Whether what is left of a secret is nothing (no 8-character run of it), some of it, or all of it. A run that
 * the text holds outside the secret too (the `rubygems_` of `rubygemsToken = "rubygems_…"`) counts only where
 * the output holds it more often than that context does.
 */
export function outcome(secret: string, output: string, text = ""): Outcome {
  if (output.includes(secret)) return "kept"
  const context = text.replaceAll(secret, "\u0000")
  const count = (haystack: string, needle: string) => haystack.split(needle).length - 1
  const width = Math.min(8, secret.length)
  for (let i = 0; i + width <= secret.length; i++) {
    const run = secret.slice(i, i + width)
    if (output.includes(run) && count(output, run) > count(context, run)) return "partial"
  }
  return "redacted"
}

/** A capture session on the fake host: each text read as a file and fetched as a page, the premise cut back. */
async function captureSession() {
  const host = createHost({ env: { RFE_JUDGE_API_KEY: "k" } })
  const id = await host.createSession()
  const userID = await host.userMessage(id, "go")
  let n = 0
  const last = () => host.plugin.sessions.get(id)?.premises.at(-1)?.text ?? ""
  return {
    async read(text: string): Promise<string> {
      const path = `/project/peer/${++n}.txt`
      await host.toolCall(id, userID, "read", { filePath: path }, readOutput(path, text))
      const body = last().replace(/\n\n\(End of file - total \d+ lines\)$/, "")
      return body.replace(/^\s*\d+: /gm, "")
    },
    async fetch(text: string): Promise<string> {
      await host.toolCall(id, userID, "webfetch", { url: `https://peer.test/${++n}` }, { output: text })
      return last()
    },
  }
}

interface Row {
  redacted: number
  partial: number
  kept: number
}

const pct = (part: number, total: number) => (total ? `${((100 * part) / total).toFixed(1)}%` : "—")

function table(title: string, rows: Map<string, Row>): string {
  const out = [title, "", "| family | samples | redacted | partial | kept |", "|---|---|---|---|---|"]
  for (const [family, row] of rows) {
    const total = row.redacted + row.partial + row.kept
    out.push(
      `| ${family} | ${total} | ${pct(row.redacted, total)} | ${pct(row.partial, total)} | ${pct(row.kept, total)} |`,
    )
  }
  return out.join("\n")
}

async function measure(samples: readonly PeerSample[], verbose: boolean) {
  const session = await captureSession()
  const byPath: Record<"read" | "webfetch", Map<string, Row>> = { read: new Map(), webfetch: new Map() }
  // The negatives apart whose shape one of the peer's own regexes calls a credential's.
  const negatives = { read: 0, webfetch: 0, total: 0, readOther: 0, webfetchOther: 0, other: 0 }
  const misses: string[] = []
  const changedNegatives: Array<{ sample: PeerSample; output: string }> = []
  for (const sample of samples) {
    for (const path of ["read", "webfetch"] as const) {
      const output = path === "read" ? await session.read(sample.text) : await session.fetch(sample.text)
      if (sample.family === "negatives") {
        if (path === "read") negatives.total++
        if (path === "read" && !sample.peerRule) negatives.other++
        if (output !== sample.text) {
          if (path === "read") changedNegatives.push({ sample, output })
          negatives[path]++
          if (!sample.peerRule) negatives[path === "read" ? "readOther" : "webfetchOther"]++
          if (verbose)
            misses.push(
              `[${path} negative${sample.peerRule ? " (peer's format)" : ""} ${sample.source}] ${JSON.stringify(sample.text).slice(0, 200)} → ${JSON.stringify(output).slice(0, 200)}`,
            )
        }
        continue
      }
      const rows = byPath[path]
      const row =
        rows.get(sample.family) ?? rows.set(sample.family, { redacted: 0, partial: 0, kept: 0 }).get(sample.family)
      if (!row) continue
      const result = outcome(sample.secret, output, sample.text)
      row[result]++
      // The stand-ins apart too: a test's `xxxx` or `EXAMPLE` is counted, and shown as what it is.
      if (sample.standIn) {
        const key = `${sample.family}: of them stand-ins`
        const standIns = rows.get(key) ?? rows.set(key, { redacted: 0, partial: 0, kept: 0 }).get(key)
        if (standIns) standIns[result]++
      }
      if (verbose && result !== "redacted") {
        misses.push(
          `[${path} ${result} ${sample.family}${sample.standIn ? " (stand-in)" : ""} ${sample.source}] ${JSON.stringify(sample.secret).slice(0, 60)} in ${JSON.stringify(sample.text).slice(0, 240)}`,
        )
      }
    }
  }
  return { byPath, negatives, misses, changedNegatives }
}

const REASONS = [
  "holds a value the peers count as a positive elsewhere",
  "its own rule's regex matches it",
  "another rule of the peer matches it",
  "no regex of the peer matches it",
] as const

function negativesTable(
  changed: ReadonlyArray<{ sample: PeerSample; output: string }>,
  samples: readonly PeerSample[],
  total: number,
): string {
  const positiveSecrets = new Set(samples.filter((s) => s.family !== "negatives" && !s.standIn).map((s) => s.secret))
  const counts = new Map<string, number>(REASONS.map((reason) => [reason, 0]))
  for (const { sample, output } of changed) {
    const reason = whyNegative(sample, output, positiveSecrets)
    counts.set(reason, (counts.get(reason) ?? 0) + 1)
  }
  const out = ["| a negative changed by redaction, because it | changed | of all negatives |", "|---|---|---|"]
  for (const [reason, n] of counts) out.push(`| ${reason} | ${n} | ${pct(n, total)} |`)
  const rest = changed.length - (counts.get("no regex of the peer matches it") ?? 0)
  out.push(
    "",
    `Were every negative that no regex of the peer matches kept, ${rest} of ${total} would still change (${pct(rest, total)}).`,
  )
  return out.join("\n")
}

function summary(rows: Map<string, Row>, families: readonly string[]): string {
  let good = 0
  let total = 0
  for (const family of families) {
    const row = rows.get(family)
    if (!row) continue
    good += row.redacted
    total += row.redacted + row.partial + row.kept
  }
  return `${pct(good, total)} of ${total}`
}

/** Lines of ordinary repositories that a read changes: the false positives to judge by eye. */
function ordinary(names: readonly string[]) {
  const texts: Array<[string, string]> = []
  for (const name of names) {
    const git = join(ROOT, name, "repo")
    if (!existsSync(git)) throw new Error(`no mirror at ${git}`)
    const files = execFileSync(
      "git",
      ["--git-dir", git, "-c", "core.quotePath=false", "ls-tree", "-r", "--name-only", "-z", "HEAD"],
      {
        encoding: "utf8",
        maxBuffer: 1 << 26,
      },
    )
    for (const file of files.split("\u0000")) {
      if (!file || /\.(?:png|jpe?g|gif|ico|svg|woff2?|ttf|eot|pdf|zip|gz|jar|lock|min\.js)$/i.test(file)) continue
      const text = execFileSync("git", ["--git-dir", git, "show", `HEAD:${file}`], {
        encoding: "utf8",
        maxBuffer: 1 << 26,
      })
      if (text.includes("\u0000") || text.length > 512 * 1024) continue
      texts.push([`${name}:${file}`, text])
    }
  }
  return texts
}

async function ordinaryReport(names: readonly string[]) {
  const session = await captureSession()
  let lines = 0
  const changed: string[] = []
  for (const [ref, text] of ordinary(names)) {
    // The premise holds the most recent 32 KB of a read: read long files in parts of at most 16 KB, as an
    // agent would; a longer line (minified code) cannot be compared and is left out.
    const all = text.split("\n")
    let from = 0
    while (from < all.length) {
      const part: string[] = []
      let size = 0
      while (from + part.length < all.length && size + (all[from + part.length]?.length ?? 0) < 16_384) {
        size += (all[from + part.length]?.length ?? 0) + 1
        part.push(all[from + part.length] ?? "")
      }
      if (part.length === 0) {
        from++
        continue
      }
      // The source-tag guard (`<source` → `‹source`) is no redaction: undone before comparing.
      const output = (await session.read(part.join("\n"))).replaceAll("‹", "<").split("\n")
      lines += part.length
      part.forEach((line, i) => {
        if (output[i] !== line) changed.push(`${ref}:${from + i + 1}: ${line.trim().slice(0, 160)}`)
      })
      from += part.length
    }
  }
  console.log(
    `Ordinary repositories (${names.join(", ")}): ${lines.toLocaleString("en")} lines, ${changed.length} changed:`,
  )
  for (const line of changed) console.log(`  ${line}`)
}

async function main() {
  const missing = Object.values(MIRRORS).filter((mirror) => !existsSync(join(ROOT, mirror)))
  if (missing.length) {
    console.log(
      `bench/peers.ts skipped: no mirror of ${missing.join(", ")} under ${ROOT} (give the folder as an argument or RFE_PEERS_DIR).`,
    )
    return
  }
  const ordinaryArg = process.argv.find((arg) => arg.startsWith("--ordinary="))
  if (ordinaryArg) return ordinaryReport(ordinaryArg.slice("--ordinary=".length).split(","))
  const samples = peerSamples(ROOT, MIRRORS, drawer(22))
  const verbose = process.argv.includes("--misses")
  const { byPath, negatives, misses, changedNegatives } = await measure(samples, verbose)
  const families = ["promised families", "vendor tokens alone", "generic assignments"]
  for (const path of ["read", "webfetch"] as const) {
    console.log(table(`Through ${path}:`, byPath[path]), "\n")
  }
  console.log("| target | read | webfetch |\n|---|---|---|")
  for (const family of families) {
    console.log(`| ${family} | ${summary(byPath.read, [family])} | ${summary(byPath.webfetch, [family])} |`)
  }
  console.log(
    `| negatives changed | ${pct(negatives.read, negatives.total)} of ${negatives.total} | ${pct(negatives.webfetch, negatives.total)} of ${negatives.total} |`,
  )
  console.log(
    `| negatives changed that no regex of the peer matches | ${pct(negatives.readOther, negatives.other)} of ${negatives.other} | ${pct(negatives.webfetchOther, negatives.other)} of ${negatives.other} |`,
  )
  console.log(
    `\nThe negatives that change, through read:\n\n${negativesTable(changedNegatives, samples, negatives.total)}`,
  )
  const bySource = new Map<string, number>()
  for (const sample of samples)
    bySource.set(sample.source.split(":")[0] ?? "", (bySource.get(sample.source.split(":")[0] ?? "") ?? 0) + 1)
  console.log(`\nSamples by peer: ${[...bySource].map(([peer, n]) => `${peer} ${n}`).join(", ")}.`)
  const located = new Map<string, number>()
  for (const sample of samples) if (sample.located) located.set(sample.located, (located.get(sample.located) ?? 0) + 1)
  console.log(
    `Where each positive's secret is: ${[...located].map(([how, n]) => `${how} ${n}`).join(", ")} (span: drawn by the peer's generator; rule: found by the peer's own rule or report; guess: neither could be run).`,
  )
  if (verbose) for (const miss of misses) console.log(miss.replaceAll(REDACTED, "▮"))
}

if (import.meta.main) await main()
