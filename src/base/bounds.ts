// Every bound on what the plugin keeps in memory, and the helpers that keep collections and work within them.

/**
 * Every bound on what the plugin keeps in memory. Each collection drops its oldest entries first when it is
 * full (`trimOldest`): forgetting an old session, reply or warned package costs at most a repeated warning.
 */
export const LIMITS = {
  sessions: 256,
  userMessagesPerSession: 16,
  toolRecords: 60,
  /** Files the calls that left the records' window are remembered by (`EarlierRecords`). */
  earlierFiles: 300,
  webRefs: 200,
  warnedPackages: 500,
  toastsPerSession: 6,
  ledgerReplies: 10_000,
  ledgerSessions: 1_000,
  cacheEntries: 200_000,
  /** Sentences of one reply listed as stating nothing to check; the rest are only counted. */
  notClaimsPerReply: 500,
} as const

/** Runs `work` over `items` with at most `limit` in flight, keeping the input order in the result. */
export async function mapConcurrent<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>) {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

/**
 * The one eviction rule of the plugin: insertion order is age, and the oldest entries leave once a
 * collection holds more than `limit`. Re-inserting a key (delete, then set) makes it the newest.
 */
export function trimOldest<T>(collection: T[] | Set<T> | Map<T, unknown>, limit: number): void {
  if (Array.isArray(collection)) {
    if (collection.length > limit) collection.splice(0, collection.length - limit)
    return
  }
  for (const key of collection.keys()) {
    if (collection.size <= limit) return
    collection.delete(key)
  }
}
