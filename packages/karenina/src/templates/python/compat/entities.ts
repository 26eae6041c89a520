/**
 * Module `karenina.schemas.entities`: what templates import from the original, and the names the original injects
 * into every template's namespace (spec 02 §1.1).
 * Python source, run by the sandbox as trusted setup (see `compat-setup.ts`).
 */
// biome-ignore lint/complexity/noUselessStringRaw: Python source, kept verbatim like the others
export const ENTITIES_SOURCE = String.raw`"""karenina.schemas.entities: what templates import, and the names the original injects into every template."""

from pydantic import Field
from _karenina_answer import BaseAnswer, VerifiedField
from _karenina_primitives import *  # noqa: F403
from _karenina_primitives import PRIMITIVES

INJECTED_NAMES = (
    "BaseAnswer", "VerifiedField", *PRIMITIVES, "AllOf", "AnyOf", "AtLeastN", "FieldCheck", "SynonymMap",
    "ConditionalGroundTruth", "GroundTruthCase",
)
`;
