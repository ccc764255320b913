// Which model judges: never the agent's own, and a different one for the second opinion.

import type { JudgeSettings } from "../config/config.ts"
import type { Notifier } from "../config/effects.ts"
import type { SessionState } from "../state/session.ts"

/** Compares model ids the way users write them: no provider prefix, no `:free`/`:thinking` variant, any case. */
export function normalizeModelId(id: string): string {
  const tail = id.trim().toLowerCase().split("/").at(-1) ?? ""
  const parts = tail.split(":")
  if (parts.length > 1 && ["hf", "openrouter", "synthetic", "models"].includes(parts[0] ?? "")) parts.shift()
  return parts[0] ?? ""
}

/** Never let a model judge itself: when the agent runs on the main judge model, the fallback judges. */
export function selectJudgeModel(
  active: string | undefined,
  judge: Pick<JudgeSettings, "mainModel" | "fallbackModel">,
) {
  if (active && normalizeModelId(active) === normalizeModelId(judge.mainModel)) return judge.fallbackModel
  return judge.mainModel
}

/**
 * The model that gives a flagged claim its second opinion: the configured judge model not asked first,
 * never the agent's own; none when no distinct model exists.
 */
export function secondOpinionModel(
  first: string,
  active: string | undefined,
  judge: Pick<JudgeSettings, "mainModel" | "fallbackModel">,
): string | undefined {
  const other = first === judge.mainModel ? judge.fallbackModel : judge.mainModel
  if (normalizeModelId(other) === normalizeModelId(first)) return undefined
  if (active && normalizeModelId(other) === normalizeModelId(active)) return undefined
  return other
}

/** A second-opinion model that leaves this many calls in a row unanswered is not asked again in the session. */
const SECOND_SILENT_LIMIT = 3

/** One session's second-opinion models: which still answer, and the once-told word when one stops being asked. */
export interface SecondOpinions {
  benched(model: string): boolean
  answered(model: string, ok: boolean): void
}

/** The second opinions of a session: its models' silences counted in the session, the benching told once. */
export function secondOpinionsOf(state: SessionState, notifier: Notifier): SecondOpinions {
  return {
    benched: (model) => (state.silentSeconds.get(model) ?? 0) >= SECOND_SILENT_LIMIT,
    answered(model, ok) {
      const silent = ok ? 0 : (state.silentSeconds.get(model) ?? 0) + 1
      state.silentSeconds.set(model, silent)
      if (silent !== SECOND_SILENT_LIMIT) return
      notifier.log("warn", `ragfaith: the second judge did not answer ${silent} times in a row; not asked again`, {
        sessionID: state.id,
        model,
      })
      notifier.tellOnce(
        `second-silent:${state.id}:${model}`,
        `ragfaith: the second judge ${model} does not answer; this session's flags rest on one judge with a verified quote`,
      )
    },
  }
}
