/** The analyst prompt's placeholders (spec 06 §5.5, 08 §10.4). */

/** The values of `$BENCHMARK_NAME`, `$ANSWERING_MODEL`, `$TOTAL`, `$PASSED`, `$FAILED`, `$FAILURE_CATEGORIES`, `$RUN_TIMESTAMP`. */
export type PromptValues = Readonly<Record<string, string>>;

/**
 * Substitutes `$NAME` and `${NAME}` leniently, as Python's `Template.safe_substitute`: unknown names and a lone
 * `$` are left as they are, `$$` becomes `$`: with `{TOTAL: "3"}`, `"$TOTAL of $OTHER"` becomes `"3 of $OTHER"`.
 */
export function substitutePlaceholders(text: string, values: PromptValues): string {
  return text.replace(
    /\$(?:(\$)|([_a-zA-Z][_a-zA-Z0-9]*)|\{([_a-zA-Z][_a-zA-Z0-9]*)\})/g,
    (whole, dollar: string | undefined, bare: string | undefined, braced: string | undefined) => {
      if (dollar !== undefined) return "$";
      const name = (bare ?? braced) as string;
      return Object.hasOwn(values, name) ? (values[name] as string) : whole;
    },
  );
}
