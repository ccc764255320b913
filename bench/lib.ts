/**
 * Helpers for the benchmarks: timing statistics, a loopback judge with latency, deterministic text
 * generators (code with secrets, markdown replies, opencode's read output) and table printing.
 */

import { createHash } from "node:crypto"
import { startJudge } from "../test/support/judge.ts"
import { randomToken, rng } from "../test/support/random.ts"

// ── Timing ───────────────────────────────────────────────────────────────────────────────────────────────

export interface Summary {
  n: number
  p50: number
  p99: number
  mean: number
  min: number
  max: number
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN
  const total = sorted.reduce((sum, x) => sum + x, 0)
  return {
    n: sorted.length,
    p50: at(0.5),
    p99: at(0.99),
    mean: total / sorted.length,
    min: sorted[0] ?? NaN,
    max: sorted.at(-1) ?? NaN,
  }
}

export const median = (samples: readonly number[]) => summarize(samples).p50

/** Milliseconds of one synchronous or asynchronous call. */
export async function time(work: () => unknown): Promise<number> {
  const started = performance.now()
  await work()
  return performance.now() - started
}

export function timeSync(work: () => unknown): number {
  const started = performance.now()
  work()
  return performance.now() - started
}

/** Repeats `work` until `minMs` have passed (at least `minRuns` times); returns per-run times. */
export function repeatSync(work: () => unknown, minMs: number, minRuns = 3, maxRuns = 10_000): number[] {
  const samples: number[] = []
  const started = performance.now()
  while (samples.length < minRuns || (performance.now() - started < minMs && samples.length < maxRuns)) {
    samples.push(timeSync(work))
  }
  return samples
}

interface ScalingResult {
  points: Array<{ size: number; ms: number }>
  msPerMB: number
  exponent: number
  stoppedEarly: boolean
}

/** A growth exponent above this is super-linear: a quadratic scan measures about 2, noise on busy cores < 1.5. */
export const SUPER_LINEAR = 1.5

/**
 * Times `work` on inputs of growing size, stopping before a size predicted to take over `budgetMs`. The two
 * largest sizes are then timed again, alternately and each after a full GC, and the growth exponent is fitted
 * between their medians (1 = linear, 2 = quadratic), so drift on a noisy machine hits both alike.
 */
export function scaling(
  work: (input: string) => unknown,
  make: (size: number) => string,
  sizes: number[],
  budgetMs: number,
) {
  const points: ScalingResult["points"] = []
  const inputs: string[] = []
  let stoppedEarly = false
  for (const size of sizes) {
    const last = points.at(-1)
    const previous = points.at(-2)
    if (last) {
      const fitted =
        previous && previous.ms > 0.05 ? Math.log(last.ms / previous.ms) / Math.log(last.size / previous.size) : 2
      if (last.ms * (size / last.size) ** Math.max(1, fitted) > budgetMs) {
        stoppedEarly = true
        break
      }
    }
    const input = make(size)
    inputs.push(input)
    points.push({ size, ms: median(repeatSync(() => work(input), 60, 1, 50)) })
  }
  const n = points.length
  const [small, large] = [points[n - 2], points[n - 1]]
  if (small && large) {
    const pair = [inputs[n - 2] ?? "", inputs[n - 1] ?? ""] as const
    const rounds = Math.max(2, Math.min(7, Math.floor(800 / Math.max(small.ms + large.ms, 1))))
    const times: [number[], number[]] = [[], []]
    for (let round = 0; round < rounds; round++) {
      for (const [i, input] of pair.entries()) {
        Bun.gc(true)
        times[i]?.push(median(repeatSync(() => work(input), 20, 1, 20)))
      }
    }
    small.ms = median(times[0])
    large.ms = median(times[1])
  }
  const last = points.at(-1) ?? { size: 1, ms: NaN }
  const previous = points.at(-2)
  const exponent = previous ? Math.log(last.ms / previous.ms) / Math.log(last.size / previous.size) : NaN
  return { points, msPerMB: (last.ms * MB) / last.size, exponent, stoppedEarly } satisfies ScalingResult
}

export const MB = 1024 * 1024
export const KB = 1024

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return "n/a"
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`
  if (ms >= 10) return `${ms.toFixed(1)} ms`
  if (ms >= 0.1) return `${ms.toFixed(2)} ms`
  return `${(ms * 1000).toFixed(1)} µs`
}

export function fmtBytes(bytes: number): string {
  if (bytes >= MB) return `${(bytes / MB).toFixed(bytes >= 10 * MB ? 0 : 1)} MB`
  if (bytes >= KB) return `${(bytes / KB).toFixed(bytes >= 10 * KB ? 0 : 1)} KB`
  return `${bytes} B`
}

export const utf8Bytes = (text: string) => Buffer.byteLength(text, "utf8")

/** Prompt tokens, approximated as UTF-8 bytes / 4 (the usual rule of thumb for BPE tokenizers on English). */
export const approxTokens = (bytes: number) => Math.round(bytes / 4)

export function commonPrefixLength(texts: readonly string[]): number {
  const first = texts[0]
  if (first === undefined) return 0
  let length = first.length
  for (const text of texts.slice(1)) {
    let i = 0
    const max = Math.min(length, text.length)
    while (i < max && text.charCodeAt(i) === first.charCodeAt(i)) i++
    length = i
  }
  return length
}

/** Lets pending timers and I/O callbacks run, so one measurement does not bill the previous one's tail. */
export const breathe = () => new Promise((resolve) => setTimeout(resolve, 5))

// ── Judge ────────────────────────────────────────────────────────────────────────────────────────────────

/** The test suite's real Bun.serve judge on 127.0.0.1, answering "faithful" after `latencyMs`. */
export function startLatencyJudge(latencyMs: number) {
  return startJudge(async () => {
    if (latencyMs > 0) await Bun.sleep(latencyMs)
    return { verdict: "faithful", source: "S1", reason: "stated in the source" }
  })
}

// ── Text ─────────────────────────────────────────────────────────────────────────────────────────────────

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

/** Repeats `unit` to exactly `size` characters. */
export const repeatTo = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size)

/**
 * Block scalars each inside the last, 256 deep (`key:|` is a header and a line without blanks): a scan that read
 * each block anew would read every deeper line once per header above it.
 */
export const BLOCK_STAIRS = Array.from({ length: 256 }, (_, depth) => `${" ".repeat(depth)}key:|\n`).join("")

/** Secret-looking lines of the kinds redaction must catch, one per call, varied by the PRNG. */
function secretLine(random: () => number, i: number): string {
  const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
  switch (i % 6) {
    case 0:
      return `const OPENAI_API_KEY = "sk-proj-${randomToken(random, 48)}"`
    case 1:
      return `// deploy token: ghp_${randomToken(random, 36)}`
    case 2:
      return `headers.authorization = "Bearer eyJ${randomToken(random, 30)}.eyJ${randomToken(random, 60)}.${randomToken(random, 43)}"`
    case 3:
      return `const DATABASE_URL = "postgres://admin:${randomToken(random, 16)}@db.internal:5432/app"`
    case 4:
      return `AWS_ACCESS_KEY_ID=AKIA${randomToken(random, 16, upper)}`
    default:
      return `  password: "${randomToken(random, 20)}",`
  }
}

/**
 * Prettier-style TypeScript (no semicolons): a bundle of small modules, each with its own imports, strings,
 * template literals and comments. `secretEvery` lines, one secret-looking line is inserted.
 */
export function tsCode(size: number, options: { seed?: number; secretEvery?: number } = {}): string {
  const random = rng(options.seed ?? 1)
  const lines: string[] = []
  let length = 0
  let secrets = 0
  const push = (line: string) => {
    lines.push(line)
    length += line.length + 1
    if (options.secretEvery && lines.length % options.secretEvery === 0) {
      const secret = secretLine(random, secrets++)
      lines.push(secret)
      length += secret.length + 1
    }
  }
  for (let i = 0; length < size; i++) {
    const chunk = [
      `// ── module ${i}: batch upload ──`,
      `import { z } from "zod"`,
      `import type { Request${i} } from "./types/request-${i % 37}"`,
      `import { retry${i % 9} } from "@acme/retry"`,
      `import pLimit from "p-limit"`,
      "",
      `export interface Options${i} {`,
      "  timeoutMs: number",
      "  retries: number",
      "  label: string",
      "}",
      "",
      `/** Sends batch ${i} to the upstream queue and waits for the acknowledgement — at most once per item. */`,
      `export async function sendBatch${i}(items: string[], options: Options${i}): Promise<number> {`,
      "  const started = Date.now()",
      "  const limit = pLimit(4)",
      "  let sent = 0",
      "  for (const item of items) {",
      "    if (!item.trim()) continue",
      `    const response = await limit(() => fetch(\`https://queue.internal/v1/batches/${i}\`, {`,
      '      method: "POST",',
      '      headers: { "content-type": "application/json" },',
      "      body: JSON.stringify({ item, label: options.label }),",
      "    }))",
      `    if (!response.ok) throw new Error(\`batch ${i} failed with HTTP \${response.status}\`)`,
      "    sent++",
      "  }",
      `  log.debug("sent batch", { batch: ${i}, sent, ms: Date.now() - started })`,
      "  return sent",
      "}",
      "",
    ]
    for (const line of chunk) push(line)
  }
  return lines.join("\n").slice(0, size)
}

/** PEP 8 Python: modules with imports, a model class and a function, two blank lines between them. */
export function pyCode(size: number): string {
  const out: string[] = []
  let length = 0
  for (let i = 0; length < size; i++) {
    const chunk = [
      "import os",
      "import json",
      "from typing import Any",
      "import requests",
      "from pydantic import BaseModel",
      `from acme_${i % 7}.client import Client`,
      "",
      "",
      `class Job${i}(BaseModel):`,
      "    name: str",
      "    retries: int = 3",
      "",
      "",
      `def run_job_${i}(job: Job${i}, client: Client) -> dict[str, Any]:`,
      `    """Runs job ${i} and returns the decoded response."""`,
      '    url = f"https://api.internal/jobs/{job.name}"',
      "    for attempt in range(job.retries):",
      '        response = requests.post(url, json={"attempt": attempt}, timeout=10)',
      "        if response.ok:",
      "            return json.loads(response.text)",
      '    raise RuntimeError(f"job {job.name} failed after {job.retries} attempts")',
      "",
      "",
    ].join("\n")
    out.push(chunk)
    length += chunk.length + 1
  }
  return out.join("\n").slice(0, size)
}

// ── Tables ───────────────────────────────────────────────────────────────────────────────────────────────

/** A GitHub-flavoured markdown table, padded so it also reads well in a terminal. */
export function table(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [headers, ...rows].map((row) => row.map(String))
  const widths = headers.map((_, c) => Math.max(3, ...cells.map((row) => (row[c] ?? "").length)))
  const line = (row: readonly string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c] ?? 3)).join(" | ")} |`
  const rule = `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`
  return [line(cells[0] ?? []), rule, ...cells.slice(1).map(line)].join("\n")
}
