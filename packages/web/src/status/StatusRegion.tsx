import { createContext, type ReactNode, useCallback, useContext, useState } from "react";

type Announce = (message: string) => void;

const AnnounceContext = createContext<Announce | undefined>(undefined);

/** Tells screen-reader users what changed (saved, loaded, failed): the text of the polite live region. */
export function useAnnounce(): Announce {
  const announce = useContext(AnnounceContext);
  if (announce === undefined) throw new Error("useAnnounce needs a <StatusRegion> above it");
  return announce;
}

/**
 * The app's `aria-live="polite"` status region (spec 07 §3), visually hidden, and the provider of
 * {@link useAnnounce}. Each announcement replaces the last one.
 */
export function StatusRegion({ children }: { readonly children: ReactNode }) {
  const [message, setMessage] = useState({ text: "", serial: 0 });
  // A new serial re-renders the same text, so a repeated message is announced again.
  const announce = useCallback<Announce>(
    (text) => setMessage((last) => ({ text, serial: last.serial + 1 })),
    [],
  );
  return (
    <AnnounceContext value={announce}>
      {children}
      <div
        className="visually-hidden"
        role="status"
        aria-live="polite"
        aria-atomic="true"
        data-testid="status"
      >
        <span key={message.serial}>{message.text}</span>
      </div>
    </AnnounceContext>
  );
}
