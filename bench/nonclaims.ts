/**
 * Requests that go to sentences claiming nothing, on the labelled replies of test/support/corpora/nonclaims.ts: lead-ins
 * of more than three words before a block, offers that wait for the user, advice, lists under an action
 * lead-in; English and German. Every fabricated sentence must still be a claim.
 *
 *   bun bench/nonclaims.ts [--verbose]
 */

import { splitClaims } from "../src/claims/split.ts"
import { LABELLED_REPLIES } from "../test/support/corpora/nonclaims.ts"

const plain = (text: string) => text.replace(/`/g, "").replace(/\s+/g, " ").trim()

/** Per reply: the claims, those that are labelled non-claims, and fabricated sentences that are no claim. */
export function measureNonClaims() {
  const replies = LABELLED_REPLIES.map((entry) => {
    const claims = splitClaims(entry.reply, 50).claims.map((claim) => plain(claim.text))
    const labelled = new Set(entry.nonClaims.map(plain))
    return {
      entry,
      claims,
      wasted: claims.filter((claim) => labelled.has(claim)),
      missed: entry.fabricated.map(plain).filter((sentence) => !claims.includes(sentence)),
    }
  })
  return {
    replies: replies.length,
    labelled: LABELLED_REPLIES.reduce((sum, entry) => sum + entry.nonClaims.length, 0),
    claims: replies.reduce((sum, reply) => sum + reply.claims.length, 0),
    wasted: replies.flatMap((reply) => reply.wasted),
    missed: replies.flatMap((reply) => reply.missed),
  }
}

if (import.meta.main) {
  const m = measureNonClaims()
  const print = (text: string) => process.stdout.write(`${text}\n`)
  print(
    `## Non-claims: ${m.replies} replies, ${m.labelled} labelled non-claims; ${m.wasted.length} requests to them; ` +
      `${m.claims} claims (${(m.claims / m.replies).toFixed(2)} per reply); ${m.missed.length} fabricated sentences not judged`,
  )
  if (process.argv.includes("--verbose")) {
    for (const text of m.wasted) print(`  request to a non-claim: ${text}`)
    for (const text of m.missed) print(`  not judged: ${text}`)
  }
}
