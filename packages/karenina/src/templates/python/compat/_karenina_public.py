"""The rest of the original's public template API, and CATALOGUE: each public name with its one object, so that
every import path (karenina.schemas.entities, karenina.schemas.primitives, their submodules) yields the same object."""

import typing

import _karenina_answer as _answer
import _karenina_primitives as _primitives
from pydantic import BaseModel


class TurnScope(BaseModel):
    """Base of the turn selectors of scenario checks; they carry no logic of their own."""


class LastTurn(TurnScope):
    type: typing.Literal["last_turn"] = "last_turn"


class FirstTurn(TurnScope):
    type: typing.Literal["first_turn"] = "first_turn"


class TurnAt(TurnScope):
    type: typing.Literal["turn_at"] = "turn_at"
    index: int


class AnyTurn(TurnScope):
    type: typing.Literal["any_turn"] = "any_turn"
    node_id: str | list[str] | None = None


class AllTurns(TurnScope):
    type: typing.Literal["all_turns"] = "all_turns"
    node_id: str | list[str] | None = None


class VerificationMeta(BaseModel):
    """What a VerifiedField stores under json_schema_extra["__verification__"]."""

    ground_truth: typing.Any
    verify_with: dict
    weight: float = 1.0
    extraction_hint: str | None = None


def apply_normalizer(normalizer, text):
    return _primitives._normalize_one(text, normalizer)


def apply_normalizers(normalizers, text):
    return _primitives._normalize(text, normalizers)


def evaluate_composition(node, leaf_evaluator):
    """Walks AllOf / AnyOf / AtLeastN nodes; any other node is a leaf, judged by leaf_evaluator."""
    if isinstance(node, _primitives.AllOf):
        return all(evaluate_composition(c, leaf_evaluator) for c in node.conditions)
    if isinstance(node, _primitives.AnyOf):
        return any(evaluate_composition(c, leaf_evaluator) for c in node.conditions)
    if isinstance(node, _primitives.AtLeastN):
        return sum(1 for c in node.conditions if evaluate_composition(c, leaf_evaluator)) >= node.n
    return leaf_evaluator(node)


def evaluate_strategy(node, field_results):
    """A strategy tree over tri-valued field results: a FieldCheck passes only on exactly True."""
    return evaluate_composition(node, lambda leaf: field_results[leaf.field] is True)


StrategyNode = typing.Union[_primitives.FieldCheck, _primitives.AllOf, _primitives.AnyOf, _primitives.AtLeastN]


def capture_answer_source(answer_class):
    """The original captures a notebook class's source here; templates are source already."""
    return answer_class


def _register_primitive(cls):
    _primitives.PRIMITIVES[cls.__name__] = cls
    return cls


_reconstruct_primitive = _primitives.rebuild_primitive

CATALOGUE = {
    **{k: v for k, v in vars(_primitives).items() if not k.startswith("__")},
    **{k: v for k, v in vars(_answer).items() if not k.startswith("__")},
    **{k: v for k, v in globals().items() if not k.startswith("__") and k != "CATALOGUE"},
}
