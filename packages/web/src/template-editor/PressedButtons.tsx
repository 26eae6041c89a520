import type { ReactElement } from "react";

export interface PressedChoice<T extends string> {
  readonly value: T;
  readonly label: string;
  readonly disabled?: boolean;
}

export interface PressedButtonsProps<T extends string> {
  readonly choices: readonly PressedChoice<T>[];
  /** The pressed choice, or null when none is. */
  readonly chosen: T | null;
  readonly onChoose: (value: T) => void;
}

/** A row of buttons of which the chosen one is pressed (`aria-pressed`): one choice out of a few. */
export function PressedButtons<T extends string>(props: PressedButtonsProps<T>): ReactElement {
  return (
    <>
      {props.choices.map((choice) => (
        <button
          key={choice.value}
          type="button"
          className="button"
          aria-pressed={props.chosen === choice.value}
          disabled={choice.disabled}
          onClick={() => props.onChoose(choice.value)}
        >
          {choice.label}
        </button>
      ))}
    </>
  );
}
