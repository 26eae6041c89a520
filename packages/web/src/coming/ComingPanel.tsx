import type { ReactNode } from "react";

export interface ComingPanelProps {
  readonly title: string;
  /** What the screen will let a person do. */
  readonly children: ReactNode;
}

/** The honest placeholder of a screen not built yet: what will be there, and no pretend data. */
export function ComingPanel({ title, children }: ComingPanelProps) {
  return (
    <section className="coming-panel">
      <h2>{title}</h2>
      <p className="coming-badge">Not built yet</p>
      {children}
    </section>
  );
}
