"""BaseAnswer and VerifiedField (spec 02 §2, §4): ground-truth hooks, automatic verify()/verify_granular() for
VerifiedField templates, and the regex checks on the raw response."""

import json
import re

from pydantic import BaseModel, ConfigDict, Field, to_jsonable
from _karenina_primitives import (
    AnyOf, AtLeastN, ConditionalGroundTruth, TracePrimitive, VerificationPrimitive, rebuild_primitive,
    resolve_conditional,
)

__all__ = ["BaseAnswer", "VerifiedField", "user_defines"]

_VERIFICATION = "__verification__"
_TRACE_NAMES = frozenset(("TraceRegex", "TraceContains", "TraceLength"))


def VerifiedField(description, ground_truth=None, verify_with=None, weight=1.0, extraction_hint=None,
                  **field_kwargs):
    """A Pydantic field whose metadata holds the ground truth and the primitive that checks it."""
    if not isinstance(description, str) or not description.strip():
        raise ValueError("description is required for VerifiedField: it tells the judge what to extract")
    if verify_with is None:
        raise ValueError("verify_with is required for VerifiedField: give a verification primitive such as ExactMatch()")
    if not isinstance(verify_with, VerificationPrimitive):
        raise TypeError(f"verify_with must be a verification primitive, got {type(verify_with).__name__}")
    if isinstance(ground_truth, ConditionalGroundTruth):
        stored_truth = ground_truth.serialize()
    else:
        stored_truth = to_jsonable(ground_truth)
    metadata = {
        "ground_truth": stored_truth,
        "verify_with": verify_with.serialize(),
        "weight": float(weight),
        "extraction_hint": extraction_hint,
    }
    extra = field_kwargs.pop("json_schema_extra", None) or {}
    return Field(description=description, json_schema_extra={**extra, _VERIFICATION: metadata}, **field_kwargs)


def _attribute(instance, name):
    """getattr(instance, name, None), without paying for a failed lookup through __getattr__."""
    if name in instance.__dict__ or hasattr(type(instance), name):
        return getattr(instance, name)
    return (instance.__dict__.get("__pydantic_extra__") or {}).get(name)


def verification_of(info):
    extra = info.json_schema_extra
    return extra.get(_VERIFICATION) if isinstance(extra, dict) else None


def user_defines(cls, name):
    """Whether name is defined by the template: on the class or an ancestor below BaseAnswer."""
    return any(name in klass.__dict__ for klass in cls.__mro__
               if klass is not BaseAnswer and isinstance(klass, type) and issubclass(klass, BaseAnswer))


def _strategy_of(cls):
    return getattr(getattr(cls, "VerificationStrategy", None), "verify_strategy", None)


def _auto_verify_granular(self):
    cls = type(self)
    results, scores = self._verification_outcomes()
    weights = {name: meta["weight"] for name, meta in cls.__verified_fields__.items()}
    total = sum(weights.values())
    if total == 0:
        return 0.0
    parts = [weights[name] * (scores.get(name) or 0.0) for name in weights]
    root = _strategy_of(cls)
    if isinstance(root, AnyOf):
        return max(parts) / total
    if isinstance(root, AtLeastN):
        return sum(sorted(parts, reverse=True)[:root.n]) / total
    return sum(parts) / total


def _ground_truth_hook(self, context, /):
    self.ground_truth()


class BaseAnswer(BaseModel):
    """Base class of answer templates."""

    model_config = ConfigDict(extra="allow")
    id: str | None = None

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs):
        reserved = {"correct"} & set(cls.__pydantic_fields__)
        if reserved:
            raise TypeError(f"Field name(s) {reserved} reserved by BaseAnswer for internal use. "
                            "Store ground truth in self.correct from ground_truth() instead.")
        if "ground_truth" in cls.__dict__ and "model_post_init" not in cls.__dict__:
            cls.model_post_init = _ground_truth_hook
        verified = {}
        for name, info in cls.__pydantic_fields__.items():
            meta = verification_of(info)
            if meta is not None:
                verified[name] = meta
        cls.__verified_fields__ = verified
        cls.__trace_fields__ = frozenset(
            name for name, meta in verified.items() if meta["verify_with"].get("type") in _TRACE_NAMES)
        cls.__primitives__ = {}
        if verified and not user_defines(cls, "verify_granular"):
            cls.verify_granular = _auto_verify_granular

    def model_post_init(self, context, /):
        cls = type(self)
        if cls.__verified_fields__ and "correct" not in (self.__dict__.get("__pydantic_extra__") or {}):
            self.correct = {name: meta["ground_truth"] for name, meta in cls.__verified_fields__.items()
                            if not (isinstance(meta["ground_truth"], dict) and meta["ground_truth"].get("__conditional__"))}

    def _primitive(self, name):
        cache = type(self).__primitives__
        if name not in cache:
            cache[name] = rebuild_primitive(type(self).__verified_fields__[name]["verify_with"])
        return cache[name]

    def _verification_outcomes(self):
        """(results, scores) per VerifiedField (spec 02 §2.4), computed once per instance."""
        cached = self.__dict__.get("_verification_cache")
        if cached is not None:
            return cached
        cls = type(self)
        null_fields = self.__dict__.get("_null_fields") or ()
        results, scores = {}, {}
        for name, meta in cls.__verified_fields__.items():
            primitive, truth = self._primitive(name), meta["ground_truth"]
            if isinstance(truth, dict) and truth.get("__conditional__"):
                truth, replacement = resolve_conditional(truth, self.__dict__.get("_scenario_context"))
                primitive = replacement or primitive
            if name in null_fields:
                results[name], scores[name] = None, None
                continue
            if isinstance(primitive, TracePrimitive):
                raw = self.__dict__.get("_raw_trace")
                if raw is None:
                    raise ValueError(f"Field '{name}' uses a TracePrimitive but requires _raw_trace to be set")
                passed = primitive.check_trace(raw) == bool(truth)
                results[name], scores[name] = passed, 1.0 if passed else 0.0
                continue
            value = getattr(self, name)
            passed = bool(primitive.check(value, truth))
            try:
                score = min(1.0, max(0.0, float(primitive.score(value, truth))))
            except Exception:
                score = 1.0 if passed else 0.0
            results[name], scores[name] = passed, score
        object.__setattr__(self, "_verification_cache", (results, scores))
        return results, scores

    def verify(self):
        cls = type(self)
        if not cls.__verified_fields__:
            raise NotImplementedError(f"{cls.__name__} has no VerifiedField: define verify() to check the answer")
        results = self._verification_outcomes()[0]
        strategy = _strategy_of(cls)
        if strategy is not None:
            return strategy.evaluate(results)
        return all(result is True for result in results.values())

    def verify_regex(self, raw_trace):
        """Runs the checks of self.regex on the raw response (spec 02 §2.6)."""
        checks = _attribute(self, "regex")
        report = {"success": True, "results": {}, "details": {}}
        if not checks:
            return report
        for name, spec in checks.items():
            pattern, expected = spec.get("pattern", ""), spec.get("expected")
            match_type = spec.get("match_type", "exact")
            base = {"pattern": pattern, "expected": expected, "match_type": match_type}
            try:
                matches = re.findall(pattern, raw_trace)
                passed, reason = _judge_matches(matches, expected, match_type)
                detail = {**base, "matches_found": matches, "match_count": len(matches),
                          "success_reason" if passed else "failure_reason": reason}
            except Exception as error:
                passed, detail = False, {"error": str(error), **base}
            report["results"][name] = passed
            report["details"][name] = detail
            report["success"] = report["success"] and passed
        return report



def _shown(value):
    return json.dumps(to_jsonable(value), ensure_ascii=False, separators=(",", ":"))


def _judge_matches(matches, expected, match_type):
    if match_type == "exact":
        if len(matches) == 1 and matches[0] == expected:
            return True, "exactly one match, equal to the expected value"
        return False, f"expected exactly one match equal to {_shown(expected)}, found {len(matches)}"
    if match_type == "contains":
        if expected in matches:
            return True, "the expected value is among the matches"
        return False, f"{_shown(expected)} is not among the {len(matches)} matches"
    if match_type == "count":
        if not isinstance(expected, int):
            return False, "count checks need an integer expected value"
        if len(matches) == expected:
            return True, f"found {int(expected)} matches"
        return False, f"expected {int(expected)} matches, found {len(matches)}"
    if match_type == "all":
        if not isinstance(expected, list):
            return False, "all checks need a list as the expected value"
        if set(expected).issubset(set(matches)):
            return True, "every expected value was matched"
        return False, f"not matched: {_shown([v for v in expected if v not in matches])}"
    return False, f"Unknown match_type: {match_type}"
