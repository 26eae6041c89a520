/** A dismissible red box for the wizard's and generator's errors (spec 07 §1.1). */
export function ErrorBox({
  message,
  onDismiss,
}: {
  readonly message: string;
  readonly onDismiss: () => void;
}) {
  return (
    <div role="alert" className="generate-error">
      <span>{message}</span>
      <button type="button" className="generate-error-dismiss" aria-label="Dismiss error" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
