// The one shipped file and how it is made: src/index.ts is the build of the modules, fresh and well-formed.
import { describe, expect, test } from "bun:test"
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import {
  ARCHITECTURE,
  architectureDoc,
  build,
  buildFormatted,
  buildJavaScript,
  FOLDERS,
  folderOf,
  JS_OUTPUT,
  MODULES,
  moduleTable,
  unusedExports,
} from "../../scripts/build.ts"

const ROOT = join(import.meta.dir, "../..")
const read = (path: string) => readFileSync(join(ROOT, path), "utf8")

function modulesOnDisk(dir = join(ROOT, "src")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return modulesOnDisk(path)
    return entry.name.endsWith(".ts") ? [relative(ROOT, path)] : []
  })
}

/** The build with one module's text replaced, to see which rule it breaks. */
function buildWith(path: string, text: string) {
  return () => build((at) => (at === path ? text : read(at)))
}

describe("src/index.ts is generated", () => {
  test("the committed file is exactly a fresh build of the modules (run `npm run build`)", () => {
    expect(read("src/index.ts") === buildFormatted()).toBe(true)
  })

  test("the build is deterministic", () => {
    expect(build()).toBe(build())
  })

  test("every module under src/ is in the build order, once", () => {
    const listed = [...MODULES].sort()
    expect(new Set(MODULES).size).toBe(MODULES.length)
    expect(
      modulesOnDisk()
        .filter((path) => path !== "src/index.ts")
        .sort(),
    ).toEqual(listed)
  })

  test("it opens with a banner that says where to edit, then the hoisted imports, then each module fenced", () => {
    const text = read("src/index.ts")
    expect(text.split("\n")[0]).toStartWith("// GENERATED FILE: do not edit. Edit the modules under src/")
    let at = 0
    for (const path of MODULES) {
      const begin = text.indexOf(`// ── Begin ${path} `, at)
      const end = text.indexOf(`// ── End ${path} `, begin)
      expect({ path, begin: begin > at, end: end > begin }).toEqual({ path, begin: true, end: true })
      at = end
    }
    const firstModule = text.indexOf("// ── Begin ")
    const imports = text.slice(0, firstModule).match(/^import .*$/gm) ?? []
    expect(imports.length).toBeGreaterThan(0)
    expect(text.slice(firstModule)).not.toMatch(/^import /m)
  })

  test("only the default export survives the join", () => {
    const text = read("src/index.ts")
    expect(text.match(/^export /gm)).toEqual(["export "])
    expect(text).toMatch(/^export default \{ id: PLUGIN_ID, server, setup \}$/m)
  })

  test("`export` comes off every kind of declaration, generators and async generators too", () => {
    const path = "src/base/bounds.ts"
    const extra = "\nexport function* eachOne() {\n  yield 1\n}\nexport async function* eachLater() {\n  yield 2\n}\n"
    const text = buildWith(path, `${read(path)}${extra}`)()
    expect(text.match(/^export /gm)).toEqual(["export "])
    expect(text).toContain("\nfunction* eachOne() {")
    expect(text).toContain("\nasync function* eachLater() {")
  })

  test("comments are kept as written", () => {
    const module = read("src/capture/redact/redact.ts")
    const comment = module.split("\n").find((line) => line.startsWith("/**"))
    expect(comment).toBeDefined()
    expect(read("src/index.ts")).toContain(comment as string)
  })
})

describe("docs/architecture.md", () => {
  test("its module table is the build's, made from each module's owner line (run `npm run build`)", () => {
    const doc = read(ARCHITECTURE)
    expect(architectureDoc(doc) === doc).toBe(true)
    for (const path of MODULES) expect(doc).toContain(`| \`${path.replace(/^src\//, "")}\` | `)
  })

  test("a changed owner line changes the table, and every folder has its line", () => {
    const changed = moduleTable((path) => (path === "src/judge/gate.ts" ? "// Something else entirely." : read(path)))
    expect(changed).toContain("| `judge/gate.ts` | Something else entirely. |")
    expect(changed).not.toEqual(moduleTable())
    const folders = new Set(MODULES.map(folderOf).filter((folder) => !folder.endsWith(".ts")))
    expect([...folders].filter((folder) => !FOLDERS[folder])).toEqual([])
  })
})

describe("exports", () => {
  test("every name a module exports is imported by some other file", () => {
    expect(unusedExports()).toEqual([])
  })

  test("an export nobody imports is found", () => {
    const path = "src/judge/gate.ts"
    const text = `${read(path)}\nexport const NOBODY_READS_THIS = 1\n`
    expect(unusedExports((at) => (at === path ? text : read(at)))).toEqual([`${path}: NOBODY_READS_THIS`])
  })
})

describe("src/index.js is the JavaScript of src/index.ts", () => {
  test("the committed file is exactly a fresh build of the committed src/index.ts (run `npm run build`)", () => {
    expect(read(JS_OUTPUT) === buildJavaScript(read("src/index.ts"))).toBe(true)
  })

  test("its one export is the default, and it imports only node: builtins", () => {
    const text = read(JS_OUTPUT)
    expect(text.match(/^export .*$/gm)).toEqual(["export default { id: PLUGIN_ID, server, setup }"])
    const sources = [...text.matchAll(/^import [^"]*"([^"]+)"/gm)].map((match) => match[1])
    expect(sources.length).toBeGreaterThan(0)
    for (const source of sources) expect(source).toStartWith("node:")
  })

  test("types are gone and comments stay", () => {
    const text = read(JS_OUTPUT)
    expect(text).not.toMatch(/^import type /m)
    expect(text).not.toMatch(/^(?:interface|type) \w+/m)
    const comment = read("src/capture/redact/redact.ts")
      .split("\n")
      .find((line) => line.startsWith("/**"))
    expect(text).toContain(comment as string)
    // a comment on a declaration that is all types (an interface) goes with it; the others stay
    expect(text).toContain("// ── End src/host/v2.ts ")
  })
})

describe("each module", () => {
  test.each([...MODULES])("%s opens with one line on what it owns, and stays under 500 lines", (path) => {
    const lines = read(path).split("\n")
    expect(lines[0]).toMatch(/^\/\/ \S.{20,}$/)
    expect(lines.length).toBeLessThanOrEqual(500)
  })
})

describe("the build's rules stop a module that breaks them", () => {
  const path = "src/judge/cache.ts"
  const original = read(path)

  test("a value imported from a module later in the order", () => {
    const text = original.replace("\n", '\nimport { createHooks } from "../host/hooks.ts"\n')
    expect(buildWith(path, text)).toThrow(/createHooks from src\/host\/hooks\.ts, which comes later/)
  })

  test("a type imported from a module later in the order", () => {
    const text = original.replace("\n", '\nimport type { ReplyJudge } from "../turn/reply.ts"\n')
    expect(buildWith(path, text)).toThrow(/ReplyJudge from src\/turn\/reply\.ts, which comes later/)
  })

  test("two folders that import each other, even when no import points forward", () => {
    // Interleave two folders in the order so that each can import the other without pointing forward.
    const order = ["src/base/unknown.ts", "src/base/text.ts", "src/config/config.ts", "src/base/bounds.ts"]
    const bounds = read("src/base/bounds.ts").replace("\n", '\nimport type { Env } from "../config/config.ts"\n')
    const run = () => build((at) => (at === "src/base/bounds.ts" ? bounds : read(at)), order)
    expect(run).toThrow(/src\/(?:base|config) and src\/(?:base|config) import each other/)
  })

  test("a top-level name that another module declares too", () => {
    const text = `${original}\nconst LIMITS = 1\n`
    expect(buildWith(path, text)).toThrow(/LIMITS is declared in both src\/base\/bounds\.ts and src\/judge\/cache\.ts/)
  })

  test("no import of the real modules points forward or closes a folder pair", () => {
    expect(() => build()).not.toThrow()
  })

  test("an import that renames, a namespace import, an import below the top, a re-export", () => {
    expect(buildWith(path, original.replace("\n", '\nimport { clip as cut } from "../base/text.ts"\n'))).toThrow(
      /renames/,
    )
    expect(buildWith(path, original.replace("\n", '\nimport * as fs from "node:fs"\n'))).toThrow(/namespace/)
    expect(buildWith(path, `${original}\nimport { clip } from "../base/text.ts"\n`)).toThrow(/at the top/)
    expect(buildWith(path, `${original}\nexport { cacheKey as key }\n`)).toThrow(/re-exports/)
  })

  test("a module without its owner line, or with a default export", () => {
    expect(buildWith(path, `\n${original}`)).toThrow(/opens with one `\/\/ ` line/)
    expect(buildWith(path, `${original}\nexport default 1\n`)).toThrow(/only src\/plugin\.ts has a default export/)
  })
})
