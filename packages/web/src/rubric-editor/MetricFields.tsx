/** The fields of a confusion-matrix metric trait (spec 03 §5.1). */
import { useId } from "react";
import type { MetricTrait } from "../library-types/index.js";
import { CheckboxField, FieldError, TextListField } from "./controls.js";
import type { FieldErrors } from "./field-errors.js";
import { MODE_METRICS, withEvaluationMode, withMetric } from "./traits.js";

export function MetricFields({
  trait,
  errors,
  onChange,
}: {
  readonly trait: MetricTrait;
  readonly errors: FieldErrors;
  readonly onChange: (next: MetricTrait) => void;
}) {
  const id = useId();
  return (
    <>
      <div className="rubric-field">
        <label htmlFor={`${id}-mode`}>Evaluation mode</label>
        <select
          id={`${id}-mode`}
          value={trait.evaluation_mode}
          onChange={(event) =>
            onChange(withEvaluationMode(trait, event.target.value as MetricTrait["evaluation_mode"]))
          }
        >
          <option value="tp_only">TP only (precision, recall, F1)</option>
          <option value="full_matrix">Full matrix (adds specificity, accuracy)</option>
        </select>
      </div>
      <fieldset
        className="rubric-metrics"
        aria-describedby={errors.metrics === undefined ? undefined : `${id}-metrics-error`}
      >
        <legend>Metrics</legend>
        {MODE_METRICS[trait.evaluation_mode].map((metric) => (
          <CheckboxField
            key={metric}
            label={metric}
            checked={trait.metrics.includes(metric)}
            onChange={(on) => onChange(withMetric(trait, metric, on))}
          />
        ))}
        <FieldError id={`${id}-metrics-error`} message={errors.metrics} />
      </fieldset>
      <TextListField
        legend="TP instructions (what a correct answer should contain)"
        itemLabel="TP instruction"
        items={trait.tp_instructions}
        error={errors.tp_instructions}
        onChange={(tp_instructions) => onChange({ ...trait, tp_instructions })}
      />
      {trait.evaluation_mode === "full_matrix" ? (
        <TextListField
          legend="TN instructions (what a correct answer should not contain)"
          itemLabel="TN instruction"
          items={trait.tn_instructions}
          error={errors.tn_instructions}
          onChange={(tn_instructions) => onChange({ ...trait, tn_instructions })}
        />
      ) : null}
      <CheckboxField
        label="Repeated extraction"
        checked={trait.repeated_extraction}
        onChange={(repeated_extraction) => onChange({ ...trait, repeated_extraction })}
        hint="Drop duplicate extracted items (ignoring case) before counting."
      />
    </>
  );
}
