// The test tree's one rule of direction: benchmarks may use the tests' helpers and corpora, never the reverse.
import { describe, expect, test } from "bun:test"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

const ROOT = join(import.meta.dir, "../..")

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) return filesUnder(path)
    return /\.[cm]?[jt]sx?$/.test(entry.name) ? [path] : []
  })
}

/** Every relative module a file names in `from "…"` or `import("…")`, as a path from the repository root. */
const SPECIFIER_RE = /(?:\bfrom\s*|\bimport\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g
function importsOf(path: string, text: string): string[] {
  return [...text.matchAll(SPECIFIER_RE)].map((match) => relative(ROOT, resolve(ROOT, dirname(path), match[1] ?? "")))
}

const fromBench = (path: string, text: string) =>
  importsOf(path, text).filter((target) => target === "bench" || target.startsWith("bench/"))

describe("test/ never imports bench/", () => {
  test("the check sees a static, a type-only and a dynamic import of bench/", () => {
    const text = [
      'import { table } from "../bench/lib.ts"',
      'import type { Summary } from "../bench/lib.ts"',
      'const run = await import("../bench/run.ts")',
      'import { FACTS } from "./support/fixtures.ts"',
    ].join("\n")
    expect(fromBench("test/x.test.ts", text)).toEqual(["bench/lib.ts", "bench/lib.ts", "bench/run.ts"])
  })

  test("no file under test/ imports from bench/", () => {
    const files = filesUnder("test")
    expect(files.length).toBeGreaterThan(40)
    const offenders = files.flatMap((path) =>
      fromBench(path, readFileSync(join(ROOT, path), "utf8")).map((target) => `${path} → ${target}`),
    )
    expect(offenders).toEqual([])
  })
})
