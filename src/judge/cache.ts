// The verdict cache: keyed per claim, in memory or as an append-only JSONL file per judge model.

import { createHash } from "node:crypto"
import { LIMITS, trimOldest } from "../base/bounds.ts"
import { VERDICTS, type Verdict } from "../config/config.ts"
import type { Deps } from "../config/effects.ts"

export interface CacheRecord {
  k: string
  v: Verdict
  s?: string
  q?: string
  r?: string
  t: number
}

export function cacheKey(model: string, context: string, claim: string): string {
  return createHash("sha256").update(`${model}\x00${context}\x00${claim}`).digest("hex")
}

/** `hf:zai-org/GLM-5.3-Flash` → `hf_zai-org_GLM-5.3-Flash`: safe on every file system, still recognisable. */
export function cacheFileName(model: string): string {
  return `opencode-cache-${model.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 120)}.jsonl`
}

export function parseCacheLines(text: string): CacheRecord[] {
  const records: CacheRecord[] = []
  for (const line of text.split("\n")) {
    if (!line.trim()) continue
    try {
      const record = JSON.parse(line) as CacheRecord
      if (typeof record.k === "string" && (VERDICTS as readonly string[]).includes(record.v)) records.push(record)
    } catch {
      // A line cut short by a crash or a full disk: skip it, keep the rest.
    }
  }
  return records
}

export interface VerdictCache {
  load(model: string): Promise<void>
  get(key: string): CacheRecord | undefined
  put(model: string, record: CacheRecord): void
  readonly size: number
}

/**
 * Memory first; with a cache directory, one append-only JSONL file per judge model, read once per plugin
 * lifetime when that model first judges. Each record is one `appendFile` of one line: O_APPEND writes of a
 * line this small do not interleave, so several opencode processes can share the file.
 */
export function createVerdictCache(
  cacheDir: string | undefined,
  deps: Pick<Deps, "readText" | "appendText" | "ensureDir">,
  warn: (message: string) => void,
): VerdictCache {
  const memory = new Map<string, CacheRecord>()
  const loads = new Map<string, Promise<void>>()
  /** Files that end in a line cut short (a crash): the next append starts a fresh line instead of joining it. */
  const cutTails = new Set<string>()
  const writes = new Map<string, Promise<void>>()
  let diskUsable = cacheDir !== undefined
  const remember = (record: CacheRecord) => {
    memory.delete(record.k)
    memory.set(record.k, record)
    trimOldest(memory, LIMITS.cacheEntries)
  }
  const fileFor = (model: string) => `${cacheDir}/${cacheFileName(model)}`
  const disableDisk = (error: unknown) => {
    if (!diskUsable) return
    diskUsable = false
    warn(`ragfaith: cannot use RFE_CACHE_DIR (${String(error)}); verdicts are cached in memory only`)
  }
  return {
    load(model) {
      if (!diskUsable || !cacheDir) return Promise.resolve()
      let pending = loads.get(model)
      if (!pending) {
        pending = deps
          .ensureDir(cacheDir)
          .then(() => deps.readText(fileFor(model)))
          .then((text) => {
            for (const record of parseCacheLines(text ?? "")) remember(record)
            if (text && !text.endsWith("\n")) cutTails.add(model)
          })
          .catch(disableDisk)
        loads.set(model, pending)
      }
      return pending
    },
    get: (key) => memory.get(key),
    put(model, record) {
      remember(record)
      if (!diskUsable) return
      const lead = cutTails.delete(model) ? "\n" : ""
      const line = `${lead}${JSON.stringify(record)}\n`
      // One append at a time per file, in order: a repairing newline must land before the lines after it.
      const written = (writes.get(model) ?? Promise.resolve())
        .then(() => (diskUsable ? deps.appendText(fileFor(model), line) : undefined))
        .catch(disableDisk)
      writes.set(model, written)
    },
    get size() {
      return memory.size
    },
  }
}
