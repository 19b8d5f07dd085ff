import type { z } from "zod";

/** Length/overlap options shared by both splitters. */
interface LengthOptions {
  readonly splitLength: number;
  readonly splitOverlap: number;
}

/**
 * Adds an issue naming the option when `splitOverlap` is not below `splitLength` (a window would never
 * move forward: Mastra's token splitter hangs there, mastra#19211).
 */
export function refineOverlap(value: LengthOptions, context: z.RefinementCtx): void {
  if (value.splitOverlap >= value.splitLength) {
    context.addIssue({
      code: "custom",
      path: ["splitOverlap"],
      message: `splitOverlap (${value.splitOverlap}) must be less than splitLength (${value.splitLength}); lower splitOverlap or raise splitLength.`,
    });
  }
}

/** Adds an issue naming `language` when `Intl.Segmenter` does not accept it as a locale. */
export function refineLanguage(language: string, context: z.RefinementCtx, path: string): void {
  try {
    new Intl.Segmenter(language, { granularity: "sentence" });
  } catch {
    context.addIssue({
      code: "custom",
      path: [path],
      message: `"${language}" is not a BCP 47 language tag Intl.Segmenter accepts; use a tag such as "en" or "de".`,
    });
  }
}
