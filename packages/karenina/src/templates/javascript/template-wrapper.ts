/**
 * Trusted JavaScript applied, inside the sandbox, to the value a template's source evaluates to. It reports
 * the template's shape as data (what each member is) and gives one `evaluate(answer, correct)` function
 * that runs `verify` then `verifyGranular`, so that one verification is one sandbox call. `verify` throwing
 * fails the call (Python skips the granular score then); `verifyGranular` throwing is reported as data,
 * except for the engine's own `InternalError`s (interrupt, out of memory, stack overflow), which must reach
 * the host.
 */
export const TEMPLATE_WRAPPER = `(template) => {
  "use strict";
  const { apply } = Reflect;
  const kindOf = (value) =>
    value === null ? "null"
    : Array.isArray(value) ? "array"
    : value instanceof Promise ? "promise"
    : typeof value;
  const kind = kindOf(template);
  const members = kind === "object" ? template : {};
  const { className, fields, groundTruth, regex, verify, verifyGranular } = members;
  const describe = (error) =>
    error instanceof Error
      ? { name: String(error.name), message: String(error.message) }
      : { name: "Uncaught", message: String(error) };
  return {
    kind,
    className,
    classNameKind: kindOf(className),
    fields,
    fieldsKind: kindOf(fields),
    groundTruth,
    groundTruthKind: kindOf(groundTruth),
    regex,
    regexKind: kindOf(regex),
    verifyKind: kindOf(verify),
    verifyGranularKind: kindOf(verifyGranular),
    evaluate(answer, correct) {
      const verdict = typeof verify === "function" ? apply(verify, members, [answer, correct]) : true;
      const outcome = { verdict: verdict === true || verdict === false ? verdict : null, verdictKind: kindOf(verdict) };
      if (typeof verifyGranular !== "function") return outcome;
      try {
        const score = apply(verifyGranular, members, [answer, correct]);
        const finite = Number.isFinite(score);
        return { ...outcome, score: finite ? score : null, scoreKind: kindOf(score), scoreFinite: finite };
      } catch (error) {
        if (error instanceof InternalError) throw error;
        return { ...outcome, scoreError: describe(error) };
      }
    },
  };
}`;
