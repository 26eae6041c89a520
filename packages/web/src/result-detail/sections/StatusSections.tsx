import type { VerificationResultMetadata } from "../../library-types/index.js";
import { DetailSection, Facts } from "./parts.js";

/** The verdict: no failure, or its category (and group), stage and reason; warnings. */
export function StatusSection({ metadata }: { readonly metadata: VerificationResultMetadata }) {
  const { failure, warnings } = metadata;
  return (
    <DetailSection title="Status">
      {failure === null ? (
        <p>
          <span className="badge pass">Completed</span> without failure
        </p>
      ) : (
        <>
          <p>
            <span className="badge fail">Failed</span> {failure.category}
          </p>
          <Facts
            entries={[
              ["Failure category", `${failure.category} (${failure.group})`],
              ["Stage", failure.stage],
              ["Reason", failure.reason],
              ["Details", failure.details === null ? undefined : JSON.stringify(failure.details)],
            ]}
          />
        </>
      )}
      {warnings.length === 0 ? null : (
        <>
          <h4>Warnings</h4>
          <ul>
            {warnings.map((warning, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: warnings may repeat
              <li key={index}>{warning}</li>
            ))}
          </ul>
        </>
      )}
    </DetailSection>
  );
}

/** Remarks that hold whatever the verdict (spec 06 §1.6). */
export function CaveatsSection({ caveats }: { readonly caveats: readonly string[] }) {
  if (caveats.length === 0) return null;
  return (
    <DetailSection title="Caveats">
      <ul>
        {caveats.map((caveat) => (
          <li key={caveat}>
            <code>{caveat}</code>
          </li>
        ))}
      </ul>
    </DetailSection>
  );
}

/** Retries used per retryable category, out of the budget. */
export function RetriesSection({
  retryCounts,
}: {
  readonly retryCounts: VerificationResultMetadata["retry_counts"];
}) {
  if (retryCounts === null) return null;
  const rows = Object.entries(retryCounts);
  if (rows.length === 0) return null;
  return (
    <DetailSection title="Retries">
      <table className="detail-table">
        <thead>
          <tr>
            <th scope="col">Category</th>
            <th scope="col">Used</th>
            <th scope="col">Budget</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([category, usage]) => (
            <tr key={category}>
              <th scope="row">{category}</th>
              <td>{usage.used}</td>
              <td>{usage.budget}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </DetailSection>
  );
}
