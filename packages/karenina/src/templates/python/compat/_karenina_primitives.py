"""The 23 verification primitives, normalizers, composition nodes and conditional ground truth of Karenina
(spec 02 §4-§7), with Python's own semantics."""

import datetime as _dt
import re
import string
import typing

from pydantic import BaseModel, ConfigDict, Field, to_jsonable
from _karenina_dates import parse_date

__all__ = [
    "AllOf", "AnyOf", "AtLeastN", "BooleanMatch", "ConditionalGroundTruth", "ContainsAll", "ContainsAny",
    "DateMatch", "DateRange", "DateTolerance", "ExactMatch", "FieldCheck", "GroundTruthCase", "LiteralMatch",
    "NumericExact", "NumericGraded", "NumericMaximum", "NumericMinimum", "NumericRange", "NumericRangeGraded",
    "NumericThresholdGraded", "NumericTolerance", "OrderedMatch", "PRIMITIVES", "RegexMatch", "SemanticMatch",
    "SetContainment", "SynonymMap", "TraceContains", "TraceLength", "TracePrimitive", "TraceRegex",
    "VerificationPrimitive", "rebuild_primitive", "resolve_conditional",
]


class SynonymMap(BaseModel):
    """A normalizer that replaces a whole string found among its keys by the mapped value."""

    mapping: dict[str, str]


_PUNCTUATION = str.maketrans("", "", string.punctuation)
_WHITESPACE = re.compile(r"\s+")


def _normalize_one(text, normalizer):
    if isinstance(normalizer, SynonymMap):
        return normalizer.mapping.get(text, text)
    if normalizer == "lowercase":
        return text.lower()
    if normalizer == "strip":
        return text.strip()
    if normalizer == "remove_punctuation":
        return text.translate(_PUNCTUATION)
    if normalizer == "collapse_whitespace":
        return _WHITESPACE.sub(" ", text).strip()
    raise ValueError(f"Unknown normalizer: '{normalizer}'")


def _normalize(text, normalizers):
    for normalizer in normalizers:
        text = _normalize_one(text, normalizer)
    return text


Normalizer = typing.Union[str, SynonymMap]


class VerificationPrimitive(BaseModel):
    """Compares an extracted value with the expected one; score gives partial credit in [0, 1]."""

    is_trace = False

    def check(self, extracted, expected):
        raise NotImplementedError(f"{type(self).__name__}.check() is not implemented")

    def score(self, extracted, expected):
        return 1.0 if self.check(extracted, expected) else 0.0

    def serialize(self):
        data = self.model_dump(mode="json")
        data["type"] = type(self).__name__
        return data


class TracePrimitive(VerificationPrimitive):
    """Checks the raw answer text instead of an extracted value."""

    is_trace = True

    def check(self, extracted, expected):
        raise NotImplementedError(f"{type(self).__name__} is a trace primitive: use check_trace(raw_trace)")

    def check_trace(self, raw_trace):
        raise NotImplementedError


# ---------------------------------------------------------------------------------------------------------------
# Boolean, string, categorical


class BooleanMatch(VerificationPrimitive):
    def check(self, extracted, expected):
        if extracted is None or expected is None:
            return extracted is None and expected is None
        return bool(extracted) == bool(expected)


class ExactMatch(VerificationPrimitive):
    normalize: list[Normalizer] = ["lowercase", "strip"]

    def check(self, extracted, expected):
        return _normalize(str(extracted), self.normalize) == _normalize(str(expected), self.normalize)


class ContainsAny(VerificationPrimitive):
    substrings: list[str]
    normalize: list[Normalizer] = []

    def check(self, extracted, expected):
        text = _normalize(str(extracted), self.normalize)
        return any(_normalize(s, self.normalize) in text for s in self.substrings)


class ContainsAll(VerificationPrimitive):
    substrings: list[str]
    normalize: list[Normalizer] = []

    def check(self, extracted, expected):
        text = _normalize(str(extracted), self.normalize)
        return all(_normalize(s, self.normalize) in text for s in self.substrings)


class RegexMatch(VerificationPrimitive):
    pattern: str
    flags: list[str] = []

    def check(self, extracted, expected):
        combined = 0
        for name in self.flags:
            flag = getattr(re, name, None)
            if isinstance(flag, re.RegexFlag):
                combined |= flag
        return re.search(self.pattern, str(extracted), combined) is not None


class SemanticMatch(VerificationPrimitive):
    threshold: float = 0.85

    def check(self, extracted, expected):
        raise NotImplementedError(
            "SemanticMatch needs an embedding model and cannot be checked in verify(); use the embedding check stage")


class LiteralMatch(VerificationPrimitive):
    def check(self, extracted, expected):
        return extracted == expected


# ---------------------------------------------------------------------------------------------------------------
# Numeric


class NumericExact(VerificationPrimitive):
    def check(self, extracted, expected):
        return float(extracted) == float(expected)


Mode = typing.Literal["relative", "absolute"]
Decay = typing.Literal["linear", "quadratic"]


class NumericTolerance(VerificationPrimitive):
    tolerance: float
    mode: Mode = "relative"

    def check(self, extracted, expected):
        e, x = float(extracted), float(expected)
        distance = abs(e - x)
        if self.mode == "absolute":
            return distance <= self.tolerance
        if x == 0:
            return distance == 0
        return distance / abs(x) <= self.tolerance


class NumericRange(VerificationPrimitive):
    min: typing.Optional[float] = None
    max: typing.Optional[float] = None
    exclusive_min: bool = False
    exclusive_max: bool = False

    def check(self, extracted, expected):
        value = float(extracted)
        if self.min is not None and (value <= self.min if self.exclusive_min else value < self.min):
            return False
        if self.max is not None and (value >= self.max if self.exclusive_max else value > self.max):
            return False
        return True


class NumericMinimum(VerificationPrimitive):
    exclusive: bool = False

    def check(self, extracted, expected):
        value, threshold = float(extracted), float(expected)
        return value > threshold if self.exclusive else value >= threshold


class NumericMaximum(VerificationPrimitive):
    exclusive: bool = False

    def check(self, extracted, expected):
        value, threshold = float(extracted), float(expected)
        return value < threshold if self.exclusive else value <= threshold


def _decay(kind, fraction):
    return 1.0 - fraction if kind == "linear" else 1.0 - fraction * fraction


class NumericGraded(VerificationPrimitive):
    cutoff: float = Field(gt=0)
    full_credit: typing.Optional[float] = None
    mode: Mode = "relative"
    decay: Decay = "linear"

    def model_post_init(self, context, /):
        if self.full_credit is not None and not 0 <= self.full_credit < self.cutoff:
            raise ValueError(f"full_credit must satisfy 0 <= full_credit < cutoff, got {self.full_credit}")

    def _distance(self, extracted, expected):
        e, x = float(extracted), float(expected)
        if self.mode == "absolute":
            return abs(e - x)
        if x == 0:
            return 0.0 if e == x else None
        return abs(e - x) / abs(x)

    def check(self, extracted, expected):
        distance = self._distance(extracted, expected)
        gate = self.cutoff if self.full_credit is None else self.full_credit
        return distance is not None and distance <= gate

    def score(self, extracted, expected):
        distance = self._distance(extracted, expected)
        if distance is None:
            return 0.0
        inner = self.full_credit or 0.0
        if distance <= inner:
            return 1.0
        if distance >= self.cutoff:
            return 0.0
        return _decay(self.decay, (distance - inner) / (self.cutoff - inner))


class NumericRangeGraded(VerificationPrimitive):
    min: float
    max: float
    margin: float = Field(gt=0)
    mode: Mode = "absolute"
    decay: Decay = "linear"
    exclusive_min: bool = False
    exclusive_max: bool = False

    def model_post_init(self, context, /):
        if not self.min < self.max:
            raise ValueError(f"min must be less than max, got min={self.min}, max={self.max}")

    def check(self, extracted, expected):
        value = float(extracted)
        above = value > self.min if self.exclusive_min else value >= self.min
        below = value < self.max if self.exclusive_max else value <= self.max
        return above and below

    def score(self, extracted, expected):
        value = float(extracted)
        if self.min <= value <= self.max:
            return 1.0
        shoulder = self.margin if self.mode == "absolute" else self.margin * (self.max - self.min)
        gap = self.min - value if value < self.min else value - self.max
        return 0.0 if gap >= shoulder else _decay(self.decay, gap / shoulder)


class NumericThresholdGraded(VerificationPrimitive):
    direction: typing.Literal["max", "min"]
    margin: float = Field(gt=0)
    mode: Mode = "relative"
    decay: Decay = "linear"
    exclusive: bool = False

    def check(self, extracted, expected):
        value, threshold = float(extracted), float(expected)
        if self.direction == "max":
            return value < threshold if self.exclusive else value <= threshold
        return value > threshold if self.exclusive else value >= threshold

    def score(self, extracted, expected):
        value, threshold = float(extracted), float(expected)
        gap = value - threshold if self.direction == "max" else threshold - value
        if gap <= 0:
            return 1.0
        shoulder = self.margin if self.mode == "absolute" else self.margin * abs(threshold)
        return 0.0 if gap >= shoulder else _decay(self.decay, gap / shoulder)


# ---------------------------------------------------------------------------------------------------------------
# Lists


class SetContainment(VerificationPrimitive):
    mode: str = "exact"
    min_overlap: typing.Optional[int] = None

    def check(self, extracted, expected):
        found, wanted = set(extracted), set(expected)
        if self.mode == "exact":
            return found == wanted
        if self.mode == "subset":
            return found <= wanted
        if self.mode == "superset":
            return found >= wanted
        if self.mode == "overlap":
            return len(found & wanted) >= (self.min_overlap or 1)
        raise ValueError(f"Unknown mode: {self.mode}")


class OrderedMatch(VerificationPrimitive):
    normalize: list[Normalizer] = ["lowercase", "strip"]

    def check(self, extracted, expected):
        if len(extracted) != len(expected):
            return False
        return all(_normalize(str(e), self.normalize) == _normalize(str(x), self.normalize)
                   for e, x in zip(extracted, expected))


# ---------------------------------------------------------------------------------------------------------------
# Dates (parse failures are a failed check; only OverflowError escapes, as with dateutil)


def _as_datetime(value, fmt=None):
    if isinstance(value, _dt.datetime):
        return value
    if isinstance(value, _dt.date):
        return _dt.datetime(value.year, value.month, value.day)
    if fmt is not None:
        return _dt.datetime.strptime(value, fmt)
    return parse_date(value)


class DateMatch(VerificationPrimitive):
    format: typing.Optional[str] = None

    def check(self, extracted, expected):
        try:
            return _as_datetime(extracted, self.format).date() == _as_datetime(expected, self.format).date()
        except (ValueError, TypeError):
            return False


class DateTolerance(VerificationPrimitive):
    tolerance: int
    unit: typing.Literal["days", "hours", "minutes"] = "days"

    def check(self, extracted, expected):
        try:
            return abs(_as_datetime(extracted) - _as_datetime(expected)) <= _dt.timedelta(**{self.unit: self.tolerance})
        except (ValueError, TypeError):
            return False


class DateRange(VerificationPrimitive):
    min: typing.Optional[str] = None
    max: typing.Optional[str] = None

    def check(self, extracted, expected):
        try:
            value = _as_datetime(extracted)
            if self.min is not None and value < _as_datetime(self.min):
                return False
            if self.max is not None and value > _as_datetime(self.max):
                return False
            return True
        except (ValueError, TypeError):
            return False


# ---------------------------------------------------------------------------------------------------------------
# Trace primitives


class TraceRegex(TracePrimitive):
    pattern: str
    count_min: typing.Optional[int] = None

    def check_trace(self, raw_trace):
        count = len(re.findall(self.pattern, raw_trace))
        return count >= self.count_min if self.count_min is not None else count > 0


class TraceContains(TracePrimitive):
    substring: str

    def check_trace(self, raw_trace):
        return self.substring in raw_trace


class TraceLength(TracePrimitive):
    min: typing.Optional[int] = None
    max: typing.Optional[int] = None
    unit: str = "chars"

    def check_trace(self, raw_trace):
        length = len(raw_trace.split()) if self.unit == "words" else len(raw_trace)
        return (self.min is None or length >= self.min) and (self.max is None or length <= self.max)


PRIMITIVES = {
    cls.__name__: cls
    for cls in (
        BooleanMatch, ExactMatch, ContainsAny, ContainsAll, RegexMatch, SemanticMatch, NumericExact,
        NumericTolerance, NumericGraded, NumericRangeGraded, NumericThresholdGraded, NumericMinimum,
        NumericMaximum, NumericRange, SetContainment, OrderedMatch, LiteralMatch, DateMatch, DateTolerance,
        DateRange, TraceRegex, TraceContains, TraceLength,
    )
}


def rebuild_primitive(data):
    """A primitive from its serialized form (spec 02 §4.1); unknown parameters are ignored."""
    if not isinstance(data, dict) or "type" not in data:
        raise ValueError("Primitive data missing 'type' key")
    cls = PRIMITIVES.get(data["type"])
    if cls is None:
        raise ValueError(f"Unknown primitive type: '{data['type']}'")
    return cls(**{k: v for k, v in data.items() if k != "type"})


# ---------------------------------------------------------------------------------------------------------------
# Composition (spec 02 §7)


def _nodes(conditions):
    return [c if isinstance(c, _Node) else _node_from(c) for c in conditions]


def _node_from(data):
    if not isinstance(data, dict) or data.get("type") not in _NODE_TYPES:
        raise ValueError(f"not a verification strategy node: {data!r}")
    return _NODE_TYPES[data["type"]](**data)


class _Node(BaseModel):
    def model_post_init(self, context, /):
        if "conditions" in type(self).__pydantic_fields__:
            self.conditions = _nodes(self.conditions)


class FieldCheck(_Node):
    type: typing.Literal["field_check"] = "field_check"
    field: str

    def evaluate(self, results):
        return results[self.field] is True


class AllOf(_Node):
    type: typing.Literal["all_of"] = "all_of"
    conditions: list = []

    def evaluate(self, results):
        return all(c.evaluate(results) for c in self.conditions)


class AnyOf(_Node):
    type: typing.Literal["any_of"] = "any_of"
    conditions: list = []

    def evaluate(self, results):
        return any(c.evaluate(results) for c in self.conditions)


class AtLeastN(_Node):
    type: typing.Literal["at_least_n"] = "at_least_n"
    n: int = Field(ge=0)
    conditions: list = []

    def evaluate(self, results):
        return sum(1 for c in self.conditions if c.evaluate(results)) >= self.n


_NODE_TYPES = {"field_check": FieldCheck, "all_of": AllOf, "any_of": AnyOf, "at_least_n": AtLeastN}


# ---------------------------------------------------------------------------------------------------------------
# Conditional ground truth (spec 02 §5)


class GroundTruthCase(BaseModel):
    model_config = ConfigDict(extra="forbid")
    value: typing.Any
    verify_with: typing.Any = None

    def model_post_init(self, context, /):
        if not (self.verify_with is None or isinstance(self.verify_with, (VerificationPrimitive, dict))):
            raise TypeError("verify_with must be a verification primitive, its serialized dict, or None")

    def serialize(self):
        primitive = self.verify_with
        return {"value": to_jsonable(self.value),
                "verify_with": primitive.serialize() if isinstance(primitive, VerificationPrimitive) else primitive}


class ConditionalGroundTruth(BaseModel):
    model_config = ConfigDict(extra="forbid")
    source: str
    cases: dict[str, GroundTruthCase]
    default: GroundTruthCase

    def serialize(self):
        return {"source": self.source, "cases": {k: c.serialize() for k, c in self.cases.items()},
                "default": self.default.serialize(), "__conditional__": True}


def _lookup(path, context):
    value = context
    for part in path.split("."):
        if not isinstance(value, dict) or value.get(part) is None:
            return None
        value = value[part]
    return value


def resolve_conditional(data, scenario_context):
    """(ground truth, replacement primitive or None) of a serialized conditional ground truth."""
    case = data["default"]
    if scenario_context is not None:
        found = _lookup(data["source"], scenario_context)
        if found is not None:
            case = data["cases"].get(str(found), case)
    primitive = case.get("verify_with")
    return case.get("value"), rebuild_primitive(primitive) if primitive is not None else None
