"""What the TypeScript side calls: load_template (execute, discover, validate per spec 02 §8, describe) and
evaluate_batch (coerce, verify, regex checks, granular score, per spec 02 §2.3-2.7). JSON data in and out."""

import builtins
import datetime
import math
import typing

from pydantic import BaseModel, Field, ValidationError, _field_title, _sorted_schema, _type_schema, _title_is_set
import _karenina_public as public
from _karenina_answer import BaseAnswer, user_defines

__all__ = ["evaluate_batch", "load_template"]

_INJECTED = {
    "List": list, "Dict": dict, "Optional": typing.Optional, "Union": typing.Union, "Any": typing.Any,
    "Literal": typing.Literal, "Field": Field,
    **{name: public.CATALOGUE[name] for name in public.INJECTED_NAMES},
}
_CACHE = {}
_CACHE_LIMIT = 256


class TemplateInvalid(Exception):
    """The template fails validation; the message is the original's (spec 02 §8)."""


def _guarded(action):
    """(value, None) or (None, exception); a MemoryError is left to the sandbox, which restarts the interpreter."""
    try:
        return action(), None
    except MemoryError:
        raise
    except Exception as error:
        return None, error


def _execute(code):
    """Runs the code as the original does (spec 02 §1.1): the injected names are the globals, and what the code
    defines at top level (imports, constants, helper classes) lands in separate locals, which the class body and
    the methods do not see. Returns the locals."""
    globals_ns = {"__name__": "__template__", "__builtins__": builtins, **_INJECTED}
    locals_ns = {}
    try:
        exec(compile(code, "<string>", "exec", dont_inherit=True), globals_ns, locals_ns)
    except MemoryError:
        raise
    except BaseException as error:
        raise TemplateInvalid(f"Error executing template code: {error}") from None
    return locals_ns


def _discover(namespace):
    found = []
    for value in namespace.values():
        if isinstance(value, type) and issubclass(value, BaseAnswer) and value is not BaseAnswer and value not in found:
            found.append(value)
    if not found:
        raise TemplateInvalid("No BaseAnswer subclass found in template namespace")
    leaves = [c for c in found if not any(other is not c and issubclass(other, c) for other in found)]
    if len(leaves) == 1:
        return leaves[0]
    named = [c for c in leaves if c.__name__ == "Answer"]
    if len(named) == 1:
        return named[0]
    raise TemplateInvalid(f"Multiple BaseAnswer subclasses found at leaf level: {[c.__name__ for c in leaves]}. "
                          "Templates must contain exactly one leaf BaseAnswer subclass.")


def _user_fields(cls):
    return [name for name in cls.__pydantic_fields__ if name != "id"]


def _regex_only(cls):
    """No fields for the judge: none but the inherited id (a field named regex does not count either)."""
    return not [name for name in _user_fields(cls) if name != "regex"]


def _dummy_value(annotation):
    if annotation is int:
        return 0
    if annotation is str:
        return ""
    if annotation is float:
        return 0.0
    if annotation is bool:
        return False
    origin = typing.get_origin(annotation)
    if annotation is list or origin is list:
        return []
    if origin is typing.Literal:
        return typing.get_args(annotation)[0]
    return ""


def _dummy_values(cls):
    """Dummy values for the class's own annotated fields (spec 02 §2.2)."""
    return {name: _dummy_value(annotation) for name, annotation in cls.__own_annotations__.items()
            if name not in ("id", "correct") and name in cls.__pydantic_fields__}


def _correct_of(instance):
    extras = instance.__dict__.get("__pydantic_extra__") or {}
    return extras.get("correct", getattr(type(instance), "correct", None))


def _validate(cls, lenient):
    """Steps 4 and 5 of spec 02 §8; returns the dummy instance's ground truth (or None)."""
    if not _regex_only(cls) and not cls.__verified_fields__:
        if not user_defines(cls, "verify"):
            raise TemplateInvalid("does not have a 'verify' method")
        if not callable(getattr(cls, "verify")):
            raise TemplateInvalid("verify must be a callable method")
    defines_hook = _defines_hook(cls)
    values = _dummy_values(cls)
    instance, error = _guarded(lambda: cls(**values))
    if error is not None:
        if defines_hook and not (lenient and isinstance(error, ValidationError)):
            raise TemplateInvalid(f"Error testing ground_truth/model_post_init: {error}")
        instance, _ = _guarded(lambda: cls.model_construct(**values))
    correct = _correct_of(instance) if instance is not None else None
    if defines_hook and correct is not None and not isinstance(correct, dict):
        raise TemplateInvalid("ground_truth/model_post_init must assign 'self.correct' as a dictionary")
    return correct if isinstance(correct, dict) else None


def _defines_hook(cls):
    return "ground_truth" in cls.__dict__ or "model_post_init" in cls.__dict__


def _without_verification(value):
    if isinstance(value, dict):
        return {k: _without_verification(v) for k, v in value.items() if k != "__verification__"}
    if isinstance(value, list):
        return [_without_verification(v) for v in value]
    return value


def _judge_schema(cls):
    """The class's schema without ground truth, without its docstring and without trace fields (spec 02 §3.1)."""
    schema = _without_verification(cls.model_json_schema())
    schema.pop("description", None)
    trace = cls.__trace_fields__
    if not trace:
        return schema
    schema["properties"] = {k: v for k, v in schema["properties"].items() if k not in trace}
    if "required" in schema:
        schema["required"] = [name for name in schema["required"] if name not in trace]
    for definition in schema.get("$defs", {}).values():
        if "properties" in definition:
            definition["properties"] = {k: v for k, v in definition["properties"].items() if k not in trace}
    return _sorted_schema(schema)


def _relaxed_schema(cls):
    """The structured-output schema: a sibling class (no docstring) whose VerifiedFields are T | None = None."""
    schema = _without_verification(cls.model_json_schema())
    schema.pop("description", None)
    schema["title"] = f"{cls.__name__}__Relaxed"
    defs = schema.get("$defs", {})
    for name in cls.__verified_fields__:
        annotation = typing.Optional[cls.__pydantic_fields__[name].annotation]
        relaxed = {**_type_schema(annotation, defs), "default": None}
        if _title_is_set(annotation):
            relaxed["title"] = _field_title(name)
        schema["properties"][name] = relaxed
    required = [name for name in schema.pop("required", []) if name not in cls.__verified_fields__]
    if required:
        schema["required"] = required
    if defs:
        schema["$defs"] = defs
    return _sorted_schema(schema)


def plain(value):
    """JSON data for the TypeScript side: tuples and sets become lists, dates ISO text, other objects their repr()."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k if isinstance(k, str) else str(k): plain(v) for k, v in value.items()}
    if isinstance(value, BaseModel):
        return plain(value.model_dump(mode="json"))
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return repr(value)


def _trace_only(cls):
    """Every field for the judge is checked against the raw response instead (a trace primitive)."""
    user_fields = _user_fields(cls)
    return bool(user_fields) and all(name in cls.__trace_fields__ for name in user_fields)


def _describe(cls, ground_truth):
    verified = cls.__verified_fields__
    mode = "classic" if not verified else "verified" if len(verified) == len(_user_fields(cls)) else "mixed"
    return {
        "className": cls.__name__,
        "mode": mode,
        "judgeSchema": _judge_schema(cls),
        "structuredOutputSchema": _relaxed_schema(cls),
        "groundTruth": ground_truth,
        "extractionHints": {name: str(meta["extraction_hint"]) for name, meta in verified.items()
                            if meta["extraction_hint"]},
        "needsNoJudge": _regex_only(cls) or _trace_only(cls),
    }


class _Loaded:
    """A validated template class, how it is described to TypeScript, and which fast path it takes."""

    __slots__ = ("cls", "description", "regex_only", "trace_only")

    def __init__(self, cls, description):
        self.cls = cls
        self.description = description
        self.regex_only = _regex_only(cls)
        self.trace_only = _trace_only(cls)


def _load(key, code, lenient):
    cls = _discover(_execute(code))
    loaded = _Loaded(cls, _describe(cls, _validate(cls, lenient)))
    if len(_CACHE) >= _CACHE_LIMIT:
        del _CACHE[next(iter(_CACHE))]
    _CACHE[key] = loaded
    return loaded


def load_template(key, code, lenient):
    """Executes and validates a template, caches its class under key, and describes it for the TypeScript side."""
    try:
        return {"ok": True, **plain(_load(key, code, lenient).description)}
    except TemplateInvalid as invalid:
        return {"ok": False, "error": str(invalid)}


def _failure(message):
    return {"verify": False, "fieldVerify": False, "verifyGranular": None, "fieldResults": {},
            "regex": {"success": True, "results": {}, "details": {}}, "error": message}


def _describe_invalid(error):
    return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']} (got {e['input']!r})" for e in error.errors())


def _instance(loaded, parsed, context):
    cls = loaded.cls
    trace = cls.__trace_fields__
    if loaded.regex_only or loaded.trace_only:
        data, nulls = {}, frozenset()
    else:
        data = dict(parsed)
        nulls = frozenset(name for name in cls.__verified_fields__ if name not in trace and data.get(name) is None)
    instance = cls.__new__(cls)
    instance._karenina_init(data, (), trace | nulls)
    object.__setattr__(instance, "_null_fields", nulls)
    object.__setattr__(instance, "_raw_trace", context.get("rawResponse"))
    if context.get("scenarioContext") is not None:
        object.__setattr__(instance, "_scenario_context", context["scenarioContext"])
    if context.get("questionId") is not None:
        instance.id = context["questionId"]
    return instance


def _field_checks(loaded, instance):
    """(verdict, error message, whether verify() raised); the regex-only path records no error (spec 02 §2.7)."""
    if loaded.regex_only:
        if not user_defines(loaded.cls, "verify"):
            return True, None, False
        verdict, _ = _guarded(lambda: bool(instance.verify()))
        return verdict is True, None, False
    verdict, raised = _guarded(lambda: bool(instance.verify()))
    if raised is not None:
        return False, f"Field verification failed: {raised}", True
    return verdict, None, False


def _regex_checks(instance, raw):
    report, error = _guarded(lambda: instance.verify_regex(raw if raw is not None else ""))
    if error is None:
        return report, None
    return {"success": False, "results": {}, "details": {}}, f"Regex verification failed: {error}"


def _granular(cls, instance):
    if not callable(getattr(cls, "verify_granular", None)):
        return None
    value, _ = _guarded(instance.verify_granular)
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None


def _field_results(cls, instance):
    """Per-field results of VerifiedFields (True, False or None: JSON data already)."""
    if not cls.__verified_fields__:
        return {}
    outcomes, _ = _guarded(instance._verification_outcomes)
    return outcomes[0] if outcomes else {}


def _evaluate(loaded, parsed, context):
    """One TemplateEvaluation (spec 02 §2.3-2.7): verify = field checks AND regex checks."""
    cls = loaded.cls
    instance, error = _guarded(lambda: _instance(loaded, parsed, context))
    if isinstance(error, ValidationError):
        return _failure(f"Parsed answer does not match the template: {_describe_invalid(error)}")
    if error is not None:
        return _failure(f"Error creating the answer: {type(error).__name__}: {error}")
    field_ok, message, raised = _field_checks(loaded, instance)
    regex, regex_error = _regex_checks(instance, context.get("rawResponse"))
    return {
        "verify": field_ok and regex["success"] is True,
        "fieldVerify": field_ok,
        "verifyGranular": None if raised else _granular(cls, instance),
        "fieldResults": _field_results(cls, instance),
        "regex": plain(regex) if regex["details"] else regex,
        "error": message or regex_error,
    }


def _cached(key, template):
    """The loaded template (most recently used last), loaded again after an interpreter restart or an eviction."""
    loaded = _CACHE.pop(key, None)
    if loaded is None:
        try:
            return _load(key, template["code"], template["lenient"])
        except TemplateInvalid as invalid:
            raise ValueError(f"Invalid template: {invalid}") from None
    _CACHE[key] = loaded
    return loaded


def evaluate_batch(request):
    """Evaluates each item {key, parsed, context} with the template request["templates"][key]."""
    templates, out = request["templates"], []
    for item in request["items"]:
        try:
            out.append(_evaluate(_cached(item["key"], templates[item["key"]]), item["parsed"], item["context"]))
        except MemoryError:
            raise
        except BaseException as error:
            out.append(_failure(f"Template failed: {type(error).__name__}: {error}"))
    return out
