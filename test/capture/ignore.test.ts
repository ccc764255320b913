/**
 * The .gitignore matcher the named-file check relies on, as a table of patterns and paths. Where git is
 * installed, every row is also put to `git check-ignore` in a scratch repository, so the table states what
 * git does rather than what the matcher was written to do.
 */

import { afterAll, describe, expect, test } from "bun:test"
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { ignoreFolders, isIgnored, parseIgnore } from "../../src/capture/ignore.ts"
import { tempDirs } from "../support/fixtures.ts"

/** [what it shows, .gitignore files by folder ("" is the root), path, ignored?] */
const CASES: Array<[string, Record<string, string>, string, boolean]> = [
  ["a name pattern matches at the top", { "": "*.log" }, "a.log", true],
  ["a name pattern matches at any depth", { "": "*.log" }, "deep/er/a.log", true],
  ["a name pattern matches the whole name only", { "": "*.log" }, "a.log.txt", false],
  ["a leading slash anchors to the folder", { "": "/build" }, "build/x.js", true],
  ["an anchored pattern is not found deeper", { "": "/build" }, "src/build/x.js", false],
  ["a folder pattern matches the folder at any depth", { "": "build/" }, "src/build/x.js", true],
  ["a folder pattern does not match a file of that name", { "": "build/" }, "build", false],
  ["a middle slash anchors too", { "": "doc/frotz" }, "doc/frotz/a.txt", true],
  ["a middle-slash pattern is not found deeper", { "": "doc/frotz" }, "a/doc/frotz/a.txt", false],
  ["a leading **/ matches at the top", { "": "**/logs" }, "logs/x.txt", true],
  ["a leading **/ matches deep down", { "": "**/logs" }, "a/b/logs/x.txt", true],
  ["**/ then a path", { "": "**/logs/debug.log" }, "a/logs/debug.log", true],
  ["a trailing /** matches inside", { "": "abc/**" }, "abc/x/y.txt", true],
  ["a trailing /** does not match the name alone", { "": "abc/**" }, "abc", false],
  ["/**/ matches zero folders", { "": "a/**/b" }, "a/b", true],
  ["/**/ matches several folders", { "": "a/**/b" }, "a/x/y/b", true],
  ["/**/ still needs the slash", { "": "a/**/b" }, "a/xb", false],
  ["a star stays within one folder", { "": "src/*.ts" }, "src/x/a.ts", false],
  ["a star matches within its folder", { "": "src/*.ts" }, "src/a.ts", true],
  ["? is one character", { "": "foo?" }, "food", true],
  ["? is exactly one character", { "": "foo?" }, "foods", false],
  ["a character class", { "": "[abc].ts" }, "b.ts", true],
  ["a character class excludes others", { "": "[abc].ts" }, "d.ts", false],
  ["a negated character class", { "": "[!abc].ts" }, "d.ts", true],
  ["a range", { "": "v[0-9].txt" }, "v7.txt", true],
  ["a negation re-includes a file", { "": "*.log\n!keep.log" }, "keep.log", false],
  ["a negation leaves the others ignored", { "": "*.log\n!keep.log" }, "drop.log", true],
  ["the last matching rule wins", { "": "!keep.log\n*.log" }, "keep.log", true],
  ["nothing inside an ignored folder can be re-included", { "": "logs/\n!logs/keep.log" }, "logs/keep.log", true],
  ["a re-included folder opens again", { "": "/*\n!/src" }, "src/a.ts", false],
  ["the rest stays ignored", { "": "/*\n!/src" }, "lib/a.ts", true],
  ["comments ignore nothing", { "": "# a.ts\n\n" }, "a.ts", false],
  ["an escaped # is a name", { "": "\\#notes" }, "#notes", true],
  ["an escaped ! is a name", { "": "\\!important" }, "!important", true],
  ["trailing spaces are cut", { "": "secret.txt   " }, "secret.txt", true],
  ["CRLF line ends", { "": "a.tmp\r\nb.tmp\r\n" }, "b.tmp", true],
  ["a nested file speaks below its folder", { sub: "*.gen.ts" }, "sub/x.gen.ts", true],
  ["a nested file says nothing above it", { sub: "*.gen.ts" }, "x.gen.ts", false],
  ["a nested anchored pattern is tied to its folder", { sub: "/out" }, "sub/out/a.js", true],
  ["a nested anchored pattern is not found deeper", { sub: "/out" }, "sub/a/out/b.js", false],
  [
    "a nested file can re-include what the root ignored",
    { "": "*.json", sub: "!config.json" },
    "sub/config.json",
    false,
  ],
  ["the root rule still holds elsewhere", { "": "*.json", sub: "!config.json" }, "config.json", true],
  ["a nested file can ignore what the root kept", { "": "!*.md", "a/b": "*.md" }, "a/b/c/readme.md", true],
  ["a plain name matches a folder on the way", { "": "node_modules" }, "node_modules/x/index.js", true],
]

const rulesOf = (files: Record<string, string>) =>
  Object.entries(files)
    .sort(([a], [b]) => a.split("/").length - b.split("/").length || a.length - b.length)
    .flatMap(([base, text]) => parseIgnore(text, base))

describe("the .gitignore matcher", () => {
  test.each(CASES)("%s", (_, files, path, ignored) => {
    expect(isIgnored(path, rulesOf(files))).toBe(ignored)
  })

  test("the folders whose .gitignore files can speak about a path, from the root down", () => {
    expect(ignoreFolders("a/b/c.ts")).toEqual(["", "a", "a/b"])
    expect(ignoreFolders("c.ts")).toEqual([""])
  })

  const git = Bun.which("git")
  const dirs = tempDirs("ragfaith-ignore-")
  afterAll(() => dirs.cleanup())

  // One scratch repository, each row in a folder of its own (a .gitignore's folder is the root its anchored
  // patterns are tied to), and one call of git for every path.
  test.skipIf(!git)("git agrees on every row", () => {
    const repo = dirs.make()
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: repo }
    Bun.spawnSync(["git", "init", "-q"], { cwd: repo, env })
    const paths = CASES.map(([, files, path], row) => {
      for (const [base, text] of Object.entries(files)) {
        mkdirSync(join(repo, `case${row}`, base), { recursive: true })
        writeFileSync(join(repo, `case${row}`, base, ".gitignore"), text)
      }
      const file = join(`case${row}`, path)
      mkdirSync(dirname(join(repo, file)), { recursive: true })
      writeFileSync(join(repo, file), "x")
      return file
    })
    const run = Bun.spawnSync(["git", "check-ignore", "--no-index", "--stdin"], {
      cwd: repo,
      env,
      stdin: new TextEncoder().encode(`${paths.join("\n")}\n`),
    })
    const ignoredByGit = new Set(run.stdout.toString().split("\n").filter(Boolean))
    const disagreements = CASES.filter(([, , , ignored], row) => ignoredByGit.has(paths[row] as string) !== ignored)
    expect(disagreements.map(([what]) => what)).toEqual([])
  })
})
