/**
 * The named-file check's own parts: which files and symbols a claim names, where a path may lead, which part
 * of a file is read, and which files are never read at all, over a real scratch work tree with real links.
 */

import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import {
  decodeText,
  filesNamedIn,
  fileWindow,
  NAMED_FILE_CHARS,
  NAMED_FILES_PER_REPLY,
  projectPath,
  readNamedFiles,
  symbolLine,
} from "../../src/capture/named.ts"
import { resolvePath } from "../../src/capture/provenance.ts"
import { fileDeps } from "../../src/host/v1.ts"
import { tempDirs } from "../support/fixtures.ts"

describe("what a claim names", () => {
  test.each([
    ["`retry()` in `src/net.ts` backs off exponentially.", [["src/net.ts", undefined, "retry"]]],
    ["The loop in src/net.ts:40 retries five times.", [["src/net.ts", 40, undefined]]],
    ["See `src/net.ts:10-20` for the backoff.", [["src/net.ts", 10, undefined]]],
    ["See `src/net.ts#L12-L20` for the backoff.", [["src/net.ts", 12, undefined]]],
    ["It is defined in src/net.ts#L7.", [["src/net.ts", 7, undefined]]],
    ["`Client.send` in `lib/client.py` raises on 500.", [["lib/client.py", undefined, "send"]]],
    [
      "`parse` lives in config.ts and `load` in `a/b.yaml`.",
      [
        ["config.ts", undefined, "parse"],
        ["a/b.yaml", undefined, "parse"],
      ],
    ],
    ["The page `https://example.com/docs/a.ts` says so.", []],
    ["It returns `true` from `src/flag.ts`.", [["src/flag.ts", undefined, undefined]]],
    ["`net.ts` exports one function.", [["net.ts", undefined, undefined]]],
  ] as const)("%s", (claim, expected) => {
    expect(filesNamedIn(claim).map((file) => [file.path, file.line, file.symbol])).toEqual(
      expected.map((row) => [...row]),
    )
  })
})

describe("where a named path may lead", () => {
  test.each([
    ["src/net.ts", { absolute: "/p/src/net.ts", relative: "src/net.ts" }],
    ["./src/../net.ts", { absolute: "/p/net.ts", relative: "net.ts" }],
    ["/p/src/a.ts", { absolute: "/p/src/a.ts", relative: "src/a.ts" }],
    ["../other/a.ts", undefined],
    ["src/../../etc/passwd", undefined],
    ["/etc/passwd", undefined],
    ["/pother/a.ts", undefined],
    ["..", undefined],
  ])("%s", (written, expected) => {
    expect(projectPath(written, "/p")).toEqual(expected)
  })
})

describe("the part of a file that is read", () => {
  const lines = [
    "import { sleep } from './sleep'",
    "// retry calls fn again",
    "const note = retry",
    "export async function retry(fn) {",
    "  return fn()",
    "}",
  ]
  test("a symbol's definition wins over an earlier mention", () => {
    expect(symbolLine(lines, "retry")).toBe(3)
    expect(symbolLine(lines, "sleep")).toBe(0)
    expect(symbolLine(lines, "missing")).toBeUndefined()
    expect(symbolLine(["  async send(body) {"], "send")).toBe(0)
    expect(symbolLine(["def parse(text):"], "parse")).toBe(0)
  })

  test("a file that fits is sent whole, numbered as opencode's read numbers lines, whatever the focus", () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n")
    const window = fileWindow(`${text}\n`, 49)
    expect([window.first, window.last]).toEqual([1, 100])
    expect(window.text.split("\n")[0]).toBe("1: line 1")
    expect(window.text.split("\n")[99]).toBe("100: line 100")
  })

  test("a longer file from a few lines above the focus, else from the start", () => {
    const text = Array.from({ length: 1_000 }, (_, i) => `line ${i + 1}`).join("\n")
    const window = fileWindow(text, 499)
    expect(window.first).toBe(494)
    expect(window.text.split("\n")[0]).toBe("494: line 494")
    expect(window.text.split("\n").at(-1)).toBe(`${window.last}: line ${window.last}`)
    expect(fileWindow(text, undefined).text.split("\n")[0]).toBe("1: line 1")
  })

  test("never more than the cap, cut at a line", () => {
    const text = Array.from({ length: 2_000 }, (_, i) => `const value${i} = ${i} // ${"x".repeat(40)}`).join("\n")
    const window = fileWindow(text, 500)
    expect(window.text.length).toBeLessThanOrEqual(NAMED_FILE_CHARS)
    expect(window.text.length).toBeGreaterThan(NAMED_FILE_CHARS - 100)
    expect(window.text.split("\n").at(-1)).toStartWith(`${window.last}: const value${window.last - 1} `)
    expect(fileWindow("y".repeat(10_000), undefined).text.length).toBe(NAMED_FILE_CHARS)
  })

  test("secrets are redacted, also a key block that begins above the window", () => {
    const key = ["-----BEGIN RSA PRIVATE KEY-----", ..."ABCDEFGHIJ".split("").map((c) => c.repeat(64))]
    const text = [
      ...key,
      "-----END RSA PRIVATE KEY-----",
      `const token = "ghp_${"Zq9X".repeat(9)}"`,
      "export function send() {}",
    ].join("\n")
    const window = fileWindow(text, 8)
    expect(window.text).not.toContain("Zq9XZq9X")
    expect(window.text).not.toContain("CCCCCCCC")
    expect(window.text).toContain("export function send")
  })

  test("binary and invalid text are refused; a character cut by a partial read is not", () => {
    expect(decodeText(new Uint8Array([104, 105, 0, 104]), true)).toBeUndefined()
    expect(decodeText(new Uint8Array([104, 0xff, 0xfe, 105]), true)).toBeUndefined()
    const cut = new TextEncoder().encode("grüße").subarray(0, 3)
    expect(decodeText(cut, false)).toBe("gr")
    expect(decodeText(cut, true)).toBeUndefined()
  })
})

describe("which files the check reads, on a real work tree", () => {
  const dirs = tempDirs("ragfaith-named-")
  let root = ""
  let project = ""
  let outside = ""
  const write = (path: string, text: string | Uint8Array) => {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, text)
  }
  beforeAll(() => {
    root = dirs.make()
    project = join(root, "project")
    outside = join(root, "outside")
    mkdirSync(join(project, ".git"), { recursive: true })
    write(join(project, ".gitignore"), "dist/\n*.local.ts\n")
    write(join(project, "src/.gitignore"), "generated/\n")
    write(join(project, "src/net.ts"), "export function retry() {\n  return 'NET-MARKER'\n}\n")
    for (const name of ["a", "b", "c", "d", "e"]) write(join(project, `src/${name}.ts`), `export const ${name} = 1\n`)
    write(join(project, ".env"), "TOKEN=ENV-MARKER\n")
    write(join(project, "keys/server.pem"), "PEM-MARKER\n")
    write(join(project, "dist/bundle.js"), "DIST-MARKER\n")
    write(join(project, "src/dev.local.ts"), "LOCAL-MARKER\n")
    write(join(project, "src/generated/api.ts"), "GENERATED-MARKER\n")
    write(join(project, "assets/logo.png"), new Uint8Array([137, 80, 78, 71, 0, 0, 0, 13]))
    write(join(project, "data/latin1.txt"), new Uint8Array([0x47, 0x72, 0xfc, 0xdf, 0x65]))
    write(join(outside, "secret.ts"), "OUTSIDE-MARKER\n")
    symlinkSync(join(outside, "secret.ts"), join(project, "src/escape.ts"))
    symlinkSync(outside, join(project, "linked"))
    symlinkSync(join(project, "src/net.ts"), join(project, "src/alias.ts"))
    symlinkSync(join(project, ".env"), join(project, "src/env.ts"))
    mkdirSync(join(project, "src/folder.ts"))
    if (Bun.which("mkfifo")) Bun.spawnSync(["mkfifo", join(project, "src/pipe.ts")])
  })
  afterAll(() => dirs.cleanup())

  const read = (claims: string[], already: string[] = []) =>
    readNamedFiles(claims, new Set(already.map((path) => resolvePath(path, project))), project, fileDeps)

  test("a named file no tool read is read, labelled as read by the check", async () => {
    const [found] = await read(["`retry()` in `src/net.ts` gives up at once."])
    expect(found?.file).toBe("src/net.ts")
    expect(found?.premise).toMatchObject({ id: "C1", origin: "machine", readBy: "check" })
    expect(found?.premise.ref).toBe("src/net.ts:1-3, read by the check")
    expect(found?.premise.text).toBe("1: export function retry() {\n2:   return 'NET-MARKER'\n3: }")
  })

  test("a file the session read already is left alone", async () => {
    expect(await read(["`src/net.ts` retries."], [join(project, "src/net.ts")])).toEqual([])
  })

  test("a link that stays inside the project is followed", async () => {
    const [found] = await read(["`src/alias.ts` retries."])
    expect(found?.premise.text).toContain("NET-MARKER")
  })

  test.each([
    ["a sensitive file", "`.env` holds the token."],
    ["a sensitive file by its ending", "`keys/server.pem` is the certificate."],
    ["a file outside the project", "`../outside/secret.ts` holds it."],
    ["an absolute path outside the project", "OUTSIDE_PATH holds it."],
    ["a link that escapes the project", "`src/escape.ts` holds it."],
    ["a linked folder that escapes the project", "`linked/secret.ts` holds it."],
    ["a link onto a sensitive file", "`src/env.ts` holds it."],
    ["a file in an ignored folder", "`dist/bundle.js` is minified."],
    ["a file an ignore pattern names", "`src/dev.local.ts` overrides it."],
    ["a file a nested .gitignore ignores", "`src/generated/api.ts` is generated."],
    ["anything inside .git", "`.git/config` names the remote."],
    ["a binary file", "`assets/logo.png` is the logo."],
    ["a file that is no UTF-8", "`data/latin1.txt` greets."],
    ["a folder", "`src/folder.ts` is a folder."],
    ["a file that does not exist", "`src/missing.ts` is gone."],
  ])("never %s", async (_, claim) => {
    const found = await read([claim.replace("OUTSIDE_PATH", join(outside, "secret.ts"))])
    expect(found).toEqual([])
  })

  test.skipIf(!Bun.which("mkfifo"))("never a named pipe, and no wait on one", async () => {
    const started = Date.now()
    expect(await read(["`src/pipe.ts` streams the events."])).toEqual([])
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  test("at most three files a reply, in the order the claims name them", async () => {
    const found = await read([
      "`src/a.ts` and `src/b.ts` export one value.",
      "`src/c.ts`, `src/d.ts` and `src/e.ts` too.",
    ])
    expect(NAMED_FILES_PER_REPLY).toBe(3)
    expect(found.map((named) => named.file)).toEqual(["src/a.ts", "src/b.ts", "src/c.ts"])
    expect(found.map((named) => named.premise.id)).toEqual(["C1", "C2", "C3"])
  })

  test("files refused do not use up the three", async () => {
    const found = await read(["`.env`, `dist/bundle.js`, `src/escape.ts`, `src/a.ts`, `src/b.ts`, `src/c.ts`."])
    expect(found.map((named) => named.file)).toEqual(["src/a.ts", "src/b.ts", "src/c.ts"])
  })
})
