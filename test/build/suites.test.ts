/**
 * The two test commands: `npm test` runs the fast suites, `npm run test:e2e` the live, TUI and Node-host suites
 * that start the real opencode or a real Node. Every test file runs in exactly one of them, and both run on the
 * contributor's own Node.
 */

import { describe, expect, test } from "bun:test"
import { readFileSync } from "node:fs"
import { join } from "node:path"

const ROOT = join(import.meta.dir, "../..")
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, { bin?: Record<string, string> }>
}

/** The suites that start the real opencode or a real Node: every file under test/live/, and the Node-host suite. */
const isE2e = (file: string) => file.startsWith("test/live/") || file.endsWith("/node.test.ts")

const fast = manifest.scripts.test ?? ""
const e2e = manifest.scripts["test:e2e"] ?? ""
const ignored = [...fast.matchAll(/--path-ignore-patterns=(\S+)/g)].map((match) => match[1] as string)
/** bun test's own arguments that are no flags: filters, each matching the paths that contain it. */
const filters = (e2e.split("&&").at(-1) ?? "")
  .trim()
  .split(/\s+/)
  .slice(2)
  .filter((arg) => !arg.startsWith("-"))
const files = [...new Bun.Glob("test/**/*.test.ts").scanSync({ cwd: ROOT })].map((file) => file.replaceAll("\\", "/"))

describe("npm test and npm run test:e2e", () => {
  test("npm test typechecks, lints, then runs bun test; test:e2e runs bun test", () => {
    expect(fast).toStartWith("tsc --noEmit && biome check . && bun test ")
    expect(e2e).toStartWith("bun test ")
  })

  test("both give a test 20 s: the machine may be busy, and bun test reads no timeout from bunfig.toml", () => {
    expect(fast).toContain(" --timeout=20000 ")
    expect(e2e).toContain(" --timeout=20000 ")
  })

  test("every test file runs in exactly one of the two", () => {
    const inFast = (file: string) => !ignored.some((pattern) => new Bun.Glob(pattern).match(file))
    const inE2e = (file: string) => filters.some((filter) => file.includes(filter))
    expect(files.length).toBeGreaterThan(10)
    expect(files.filter((file) => inFast(file) === inE2e(file))).toEqual([])
  })

  test("test:e2e holds the live, TUI and Node-host suites and nothing else", () => {
    const chosen = files.filter((file) => filters.some((filter) => file.includes(filter)))
    expect(chosen.sort()).toEqual(files.filter(isE2e).sort())
    expect(chosen).toContain("test/live/tui.test.ts")
    expect(chosen).toContain("test/build/node.test.ts")
  })

  test("no dev dependency puts a node on the PATH of npm scripts", () => {
    const nodes = Object.entries(lock.packages).filter(([, entry]) => entry.bin && "node" in entry.bin)
    expect(nodes.map(([path]) => path)).toEqual([])
  })
})
