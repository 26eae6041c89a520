import type { ModelInterface } from "../library-types/index.js";
import type { RunQuestion } from "./checkpoint-questions.js";
import { ModelCardView } from "./ModelCardView.js";
import { defaultModelCard, type ModelCard, type ModelRole } from "./run-settings.js";

export interface ModelListProps {
  readonly role: ModelRole;
  readonly cards: readonly ModelCard[];
  readonly interfaces: readonly ModelInterface[];
  readonly providers: readonly string[];
  readonly questions: readonly RunQuestion[];
  readonly disabled: boolean;
  readonly onChange: (cards: readonly ModelCard[]) => void;
}

const TITLES: Record<ModelRole, string> = { answering: "Answering", parsing: "Parsing" };

/** "Answering Models" or "Parsing Models": the cards, Add, and Remove on each but the last. */
export function ModelList({ role, cards, onChange, ...rest }: ModelListProps) {
  const headingId = `${role}-models-heading`;
  return (
    <section className="model-list" aria-labelledby={headingId}>
      <h3 id={headingId}>{TITLES[role]} Models</h3>
      {cards.map((card, index) => (
        <ModelCardView
          key={card.key}
          card={card}
          role={role}
          title={`${TITLES[role]} model ${index + 1}`}
          interfaces={rest.interfaces}
          providers={rest.providers}
          questions={rest.questions}
          disabled={rest.disabled}
          canRemove={cards.length > 1 && !rest.disabled}
          onChange={(next) => onChange(cards.map((c) => (c.key === card.key ? next : c)))}
          onRemove={() => onChange(cards.filter((c) => c.key !== card.key))}
        />
      ))}
      <button
        type="button"
        className="secondary-button"
        disabled={rest.disabled}
        onClick={() => {
          const last = cards[cards.length - 1];
          const added = defaultModelCard(role);
          onChange([...cards, last === undefined ? added : { ...last, key: added.key }]);
        }}
      >
        Add {TITLES[role]} Model
      </button>
    </section>
  );
}
