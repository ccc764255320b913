// Which model judges: never the agent's own, and a different one for the second opinion.
import type { JudgeSettings } from "../config/config.ts"

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
