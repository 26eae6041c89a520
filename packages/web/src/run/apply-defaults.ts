import type { ModelDefaults } from "../library-types/index.js";
import { defaultModelCard, type ModelCard, type RunSettings } from "./run-settings.js";

/** Whether a card still has the factory interface, provider and model (the user has not changed them). */
function atFactoryDefaults(card: ModelCard, role: "answering" | "parsing"): boolean {
  const factory = defaultModelCard(role, card.key);
  return (
    card.interface === factory.interface &&
    card.provider === factory.provider &&
    card.modelName === factory.modelName
  );
}

function withDefaults(card: ModelCard, defaults: ModelDefaults): ModelCard {
  return {
    ...card,
    interface: defaults.default_interface,
    provider: defaults.default_provider,
    modelName: defaults.default_model,
    endpointBaseUrl: defaults.default_endpoint_base_url ?? card.endpointBaseUrl,
  };
}

/**
 * The settings after the first visit's defaults (spec 07 §1.5, §1.8): cards still at the factory model take the
 * server's saved defaults; once only, so a later change of the defaults never overwrites the user's cards.
 */
export function withServerDefaults(settings: RunSettings, defaults: ModelDefaults): RunSettings {
  if (settings.defaultsApplied) return settings;
  return {
    ...settings,
    answering: settings.answering.map((c) =>
      atFactoryDefaults(c, "answering") ? withDefaults(c, defaults) : c,
    ),
    parsing: settings.parsing.map((c) => (atFactoryDefaults(c, "parsing") ? withDefaults(c, defaults) : c)),
    defaultsApplied: true,
  };
}
