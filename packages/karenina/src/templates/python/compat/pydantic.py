"""A subset of Pydantic v2, enough for answer templates: models with lax coercion, Field constraints,
ConfigDict(extra=...), model_json_schema() in Pydantic's exact shape, model_dump(), ValidationError."""

import collections
import copy
import datetime as _dt
import inspect
import math
import re
import sys
import types
import typing

try:
    import annotationlib as _annotationlib
except ImportError:  # Python < 3.14
    _annotationlib = None

__all__ = ["BaseModel", "ConfigDict", "Field", "FieldInfo", "PydanticSchemaGenerationError", "PydanticUserError",
           "ValidationError"]

_MISSING = object()
_NONE_TYPE = type(None)


class PydanticSchemaGenerationError(TypeError):
    pass


def ConfigDict(**settings):
    return dict(settings)


class FieldInfo:
    __slots__ = (
        "annotation", "default", "default_factory", "title", "description", "examples", "json_schema_extra",
        "constraints", "validate", "pending",
    )

    def __init__(self, default=_MISSING, default_factory=None, title=None, description=None, examples=None,
                 json_schema_extra=None, constraints=None):
        self.annotation = None
        self.default = _MISSING if default is Ellipsis else default
        self.default_factory = default_factory
        self.title = title
        self.description = description
        self.examples = examples
        self.json_schema_extra = json_schema_extra
        self.constraints = constraints or {}
        self.validate = None
        self.pending = None

    def is_required(self):
        return self.default is _MISSING and self.default_factory is None

    def get_default(self):
        if self.default_factory is not None:
            return self.default_factory()
        value = self.default
        return copy.deepcopy(value) if isinstance(value, (list, dict, set)) else value

    def copy(self):
        twin = FieldInfo()
        for name in FieldInfo.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.constraints = dict(self.constraints)
        return twin

    def __repr__(self):
        shown = ", ".join(f"{k}={getattr(self, k)!r}" for k in ("annotation", "default", "description")
                          if getattr(self, k) not in (None, _MISSING))
        return f"FieldInfo({shown})"


_CONSTRAINTS = ("ge", "gt", "le", "lt", "min_length", "max_length", "pattern")


def Field(default=_MISSING, *, default_factory=None, title=None, description=None, examples=None,
          json_schema_extra=None, ge=None, gt=None, le=None, lt=None, min_length=None, max_length=None,
          pattern=None, **extra):
    if default is not _MISSING and default is not Ellipsis and default_factory is not None:
        raise TypeError("cannot specify both default and default_factory")
    given = {"ge": ge, "gt": gt, "le": le, "lt": lt, "min_length": min_length, "max_length": max_length,
             "pattern": pattern}
    if extra:  # Pydantic keeps unknown keyword arguments as JSON schema extras (with a deprecation warning)
        json_schema_extra = {**extra, **(json_schema_extra or {})} if not callable(json_schema_extra) else json_schema_extra
    return FieldInfo(default, default_factory, title, description, examples, json_schema_extra,
                     {k: v for k, v in given.items() if v is not None})


# ---------------------------------------------------------------------------------------------------------------
# Errors


class _Invalid(Exception):
    """Raised by validators; carries Pydantic-style error dicts."""

    def __init__(self, errors):
        super().__init__()
        self.errors = errors


def _fail(kind, message, loc, value):
    raise _Invalid([{"type": kind, "loc": loc, "msg": message, "input": value}])


def _short_repr(value):
    text = repr(value)
    return text if len(text) <= 100 else text[:49] + "..." + text[-48:]


class ValidationError(ValueError):
    def __init__(self, title, errors):
        self.title = title
        self._errors = errors
        super().__init__(self._render())

    def errors(self):
        return [{"type": e["type"], "loc": e["loc"], "msg": e["msg"], "input": e["input"]} for e in self._errors]

    def error_count(self):
        return len(self._errors)

    def _render(self):
        count = len(self._errors)
        lines = [f"{count} validation error{'' if count == 1 else 's'} for {self.title}"]
        for error in self._errors:
            if error["loc"]:
                lines.append(".".join(str(part) for part in error["loc"]))
            lines.append(f"  {error['msg']} [type={error['type']}, input_value={_short_repr(error['input'])}, "
                         f"input_type={type(error['input']).__name__}]")
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------------------
# Validators: fn(value, loc, strict) -> value, raising _Invalid. Lax mode follows Pydantic's conversion table.

_TRUE_WORDS = frozenset(("true", "t", "yes", "y", "on", "1"))
_FALSE_WORDS = frozenset(("false", "f", "no", "n", "off", "0"))
_INT_TEXT = re.compile(r"[+-]?\d+(?:\.0*)?")
_FLOAT_TEXT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:inf|infinity|nan)", re.IGNORECASE)
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _any(value, loc, strict):
    return value


def _str(value, loc, strict):
    if isinstance(value, str):
        return value
    _fail("string_type", "Input should be a valid string", loc, value)


def _int(value, loc, strict):
    kind = type(value)
    if kind is int:
        return value
    if kind is bool:
        if strict:
            _fail("int_type", "Input should be a valid integer", loc, value)
        return int(value)
    if isinstance(value, int):
        return int(value)
    if strict:
        _fail("int_type", "Input should be a valid integer", loc, value)
    if isinstance(value, float):
        if not math.isfinite(value):
            _fail("finite_number", "Input should be a finite number", loc, value)
        if value != int(value):
            _fail("int_from_float", "Input should be a valid integer, got a number with a fractional part", loc, value)
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if _INT_TEXT.fullmatch(text):
            return int(text.split(".")[0])
        _fail("int_parsing", "Input should be a valid integer, unable to parse string as an integer", loc, value)
    _fail("int_type", "Input should be a valid integer", loc, value)


def _float(value, loc, strict):
    kind = type(value)
    if kind is float:
        return value
    if kind is int:
        return float(value)
    if strict:
        _fail("float_type", "Input should be a valid number", loc, value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.strip()
        if _FLOAT_TEXT.fullmatch(text):
            return float(text)
        _fail("float_parsing", "Input should be a valid number, unable to parse string as a number", loc, value)
    _fail("float_type", "Input should be a valid number", loc, value)


def _bool(value, loc, strict):
    if value is True or value is False:
        return value
    if strict:
        _fail("bool_type", "Input should be a valid boolean", loc, value)
    if isinstance(value, (int, float)) and value in (0, 1):
        return value == 1
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _TRUE_WORDS:
            return True
        if word in _FALSE_WORDS:
            return False
        _fail("bool_parsing", "Input should be a valid boolean, unable to interpret input", loc, value)
    if isinstance(value, (int, float)):
        _fail("bool_parsing", "Input should be a valid boolean, unable to interpret input", loc, value)
    _fail("bool_type", "Input should be a valid boolean", loc, value)


def _none(value, loc, strict):
    if value is None:
        return None
    _fail("none_required", "Input should be None", loc, value)


def _date(value, loc, strict):
    if isinstance(value, _dt.datetime):
        if not strict and value.time() == _dt.time(0):
            return value.date()
    elif isinstance(value, _dt.date):
        return value
    elif isinstance(value, str) and not strict:
        text = value.strip()
        if _ISO_DATE.fullmatch(text):
            try:
                return _dt.date.fromisoformat(text)
            except ValueError:
                _fail("date_from_datetime_parsing", "Input should be a valid date or datetime, day value is outside "
                      "expected range", loc, value)
    _fail("date_parsing" if isinstance(value, str) else "date_type",
          "Input should be a valid date in the format YYYY-MM-DD", loc, value)


def _datetime(value, loc, strict):
    if isinstance(value, _dt.datetime):
        return value
    if isinstance(value, str) and not strict:
        text = value.strip()
        try:
            return _dt.datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text)
        except ValueError:
            pass
    _fail("datetime_parsing" if isinstance(value, str) else "datetime_type",
          "Input should be a valid datetime", loc, value)


def _nullable(inner):
    def validate(value, loc, strict):
        return None if value is None else inner(value, loc, strict)
    return validate


def _literal(choices):
    def validate(value, loc, strict):
        for choice in choices:
            if type(value) is type(choice) and value == choice:
                return choice
        shown = [repr(c) for c in choices]
        expected = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
        _fail("literal_error", f"Input should be {expected}", loc, value)
    return validate


def _union(branches):
    def validate(value, loc, strict):
        for _, branch in branches:
            try:
                return branch(value, loc, True)
            except _Invalid:
                pass
        if strict:
            _fail("union_tag_invalid", "Input does not match any member of the union", loc, value)
        errors = []
        for tag, branch in branches:
            try:
                return branch(value, loc, False)
            except _Invalid as invalid:
                errors.extend({**e, "loc": e["loc"][:len(loc)] + (tag,) + e["loc"][len(loc):]} for e in invalid.errors)
        raise _Invalid(errors)
    return validate


def _items(item, value, loc, strict):
    out, errors = [], []
    for index, element in enumerate(value):
        try:
            out.append(item(element, loc + (index,), strict))
        except _Invalid as invalid:
            errors.extend(invalid.errors)
    if errors:
        raise _Invalid(errors)
    return out


def _list(item):
    def validate(value, loc, strict):
        if isinstance(value, list) or (not strict and isinstance(value, (tuple, set, frozenset))):
            return _items(item, value, loc, strict)
        _fail("list_type", "Input should be a valid list", loc, value)
    return validate


def _set(item):
    def validate(value, loc, strict):
        if isinstance(value, (set, frozenset)) or (not strict and isinstance(value, (list, tuple))):
            try:
                return set(_items(item, value, loc, strict))
            except TypeError:
                pass
        _fail("set_type", "Input should be a valid set", loc, value)
    return validate


def _tuple(items, variadic):
    def validate(value, loc, strict):
        if not (isinstance(value, tuple) or (not strict and isinstance(value, list))):
            _fail("tuple_type", "Input should be a valid tuple", loc, value)
        if variadic:
            return tuple(_items(items[0], value, loc, strict))
        if len(value) != len(items):
            _fail("too_long" if len(value) > len(items) else "too_short",
                  f"Tuple should have {len(items)} items, not {len(value)}", loc, value)
        return tuple(check(element, loc + (i,), strict) for i, (check, element) in enumerate(zip(items, value)))
    return validate


def _dict(key, item):
    def validate(value, loc, strict):
        if not isinstance(value, dict):
            _fail("dict_type", "Input should be a valid dictionary", loc, value)
        out, errors = {}, []
        for k, v in value.items():
            try:
                out[key(k, loc + (k, "[key]"), strict)] = item(v, loc + (k,), strict)
            except _Invalid as invalid:
                errors.extend(invalid.errors)
        if errors:
            raise _Invalid(errors)
        return out
    return validate


def _model(cls):
    def validate(value, loc, strict):
        if isinstance(value, cls):
            return value
        if not strict and isinstance(value, dict):
            instance = cls.__new__(cls)
            instance._karenina_init(value, loc, frozenset())
            return instance
        _fail("model_type", f"Input should be a valid dictionary or instance of {cls.__name__}", loc, value)
    return validate


def _constrained(inner, constraints):
    checks = []
    for name, limit in constraints.items():
        if name == "ge":
            checks.append(lambda v, t=limit: None if v >= t else ("greater_than_equal", f"Input should be greater than or equal to {t}"))
        elif name == "gt":
            checks.append(lambda v, t=limit: None if v > t else ("greater_than", f"Input should be greater than {t}"))
        elif name == "le":
            checks.append(lambda v, t=limit: None if v <= t else ("less_than_equal", f"Input should be less than or equal to {t}"))
        elif name == "lt":
            checks.append(lambda v, t=limit: None if v < t else ("less_than", f"Input should be less than {t}"))
        elif name == "min_length":
            checks.append(lambda v, n=limit: None if len(v) >= n else _length_error(v, "at least", n, "short"))
        elif name == "max_length":
            checks.append(lambda v, n=limit: None if len(v) <= n else _length_error(v, "at most", n, "long"))
        elif name == "pattern":
            compiled = re.compile(limit)
            checks.append(lambda v, p=compiled: None if p.search(v) else ("string_pattern_mismatch", f"String should match pattern '{p.pattern}'"))

    def validate(value, loc, strict):
        value = inner(value, loc, strict)
        if value is not None:
            for check in checks:
                problem = check(value)
                if problem:
                    _fail(problem[0], problem[1], loc, value)
        return value
    return validate


def _length_error(value, bound, n, side):
    plural = "" if n == 1 else "s"
    if isinstance(value, str):
        return (f"string_too_{side}", f"String should have {bound} {n} character{plural}")
    kind = "List" if isinstance(value, list) else type(value).__name__.capitalize()
    return (f"too_{side}", f"{kind} should have {bound} {n} item{plural} after validation, not {len(value)}")


def _union_parts(annotation):
    args = typing.get_args(annotation)
    return [a for a in args if a is not _NONE_TYPE and a is not None], any(a is _NONE_TYPE or a is None for a in args)


def _is_union(origin):
    return origin is typing.Union or (hasattr(types, "UnionType") and origin is types.UnionType)


def _tag(annotation):
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return f"literal[{','.join(repr(a) for a in typing.get_args(annotation))}]"
    if origin is not None:
        return f"{origin.__name__}[{','.join(_tag(a) for a in typing.get_args(annotation))}]"
    return getattr(annotation, "__name__", repr(annotation))


def _unsupported(annotation):
    return PydanticSchemaGenerationError(
        f"Unable to generate pydantic-core schema for {annotation!r}. Set arbitrary_types_allowed=True in the "
        "model_config to ignore this error or implement __get_pydantic_core_schema__ on your type to fully "
        "support it.")


def _validator(annotation):
    """The validator of a type annotation; unsupported annotations fail here, when the class is created."""
    if annotation is typing.Any or annotation is object:
        return _any
    simple = {str: _str, int: _int, float: _float, bool: _bool, _NONE_TYPE: _none, None: _none,
              _dt.datetime: _datetime, _dt.date: _date}
    if annotation in simple:
        return simple[annotation]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _model(annotation)
    if annotation in (list, set, frozenset, tuple, dict):
        annotation = {list: list[typing.Any], set: set[typing.Any], frozenset: frozenset[typing.Any],
                      tuple: tuple[typing.Any, ...], dict: dict[typing.Any, typing.Any]}[annotation]
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _annotated(args)
    if origin is typing.Literal:
        return _literal(args)
    if _is_union(origin):
        members, nullable = _union_parts(annotation)
        inner = (_validator(members[0]) if len(members) == 1
                 else _union([(_tag(m), _validator(m)) for m in members]))
        return _nullable(inner) if nullable else inner
    if origin is list:
        return _list(_validator(args[0]) if args else _any)
    if origin in (set, frozenset):
        return _set(_validator(args[0]) if args else _any)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _tuple([_validator(args[0])], True)
        return _tuple([_validator(a) for a in args], False)
    if origin is dict:
        return _dict(_validator(args[0]) if args else _any, _validator(args[1]) if args else _any)
    raise _unsupported(annotation)


def _annotated(args):
    base = _validator(args[0])
    constraints = {}
    for meta in args[1:]:
        if isinstance(meta, FieldInfo):
            constraints.update(meta.constraints)
    return _constrained(base, constraints) if constraints else base


# ---------------------------------------------------------------------------------------------------------------
# JSON schema in Pydantic's shape (keys sorted except under "properties" and "default").

_SIMPLE_SCHEMAS = {
    str: {"type": "string"}, int: {"type": "integer"}, float: {"type": "number"}, bool: {"type": "boolean"},
    _NONE_TYPE: {"type": "null"}, None: {"type": "null"},
    _dt.date: {"format": "date", "type": "string"}, _dt.datetime: {"format": "date-time", "type": "string"},
}
_NUMBER_KEYS = {"ge": "minimum", "gt": "exclusiveMinimum", "le": "maximum", "lt": "exclusiveMaximum"}


def _literal_type(values):
    kinds = {type(v) for v in values}
    names = {str: "string", int: "integer", float: "number", bool: "boolean", _NONE_TYPE: "null"}
    return names.get(kinds.pop()) if len(kinds) == 1 else None


def _type_schema(annotation, defs):
    if annotation is typing.Any or annotation is object:
        return {}
    if annotation in _SIMPLE_SCHEMAS:
        return dict(_SIMPLE_SCHEMAS[annotation])
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        name = annotation.__name__
        if name not in defs:
            defs[name] = {}
            defs[name] = annotation._karenina_schema(defs)
        return {"$ref": f"#/$defs/{name}"}
    if annotation in (list, set, frozenset, tuple, dict):
        annotation = {list: list[typing.Any], set: set[typing.Any], frozenset: frozenset[typing.Any],
                      tuple: tuple[typing.Any, ...], dict: dict[typing.Any, typing.Any]}[annotation]
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        schema = _type_schema(args[0], defs)
        for meta in args[1:]:
            if isinstance(meta, FieldInfo):
                _apply_constraints(schema, meta.constraints)
        return schema
    if origin is typing.Literal:
        values = list(args)
        schema = {"const": values[0]} if len(values) == 1 else {"enum": values}
        kind = _literal_type(values)
        if kind:
            schema["type"] = kind
        return schema
    if _is_union(origin):
        members, nullable = _union_parts(annotation)
        branches = []
        for member in members:
            inner = _type_schema(member, defs)
            branches.extend(inner["anyOf"] if list(inner) == ["anyOf"] else [inner])
        if nullable:
            branches.append({"type": "null"})
        return branches[0] if len(branches) == 1 else {"anyOf": branches}
    if origin in (list, set, frozenset):
        schema = {"items": _type_schema(args[0], defs) if args else {}, "type": "array"}
        if origin is not list:
            schema["uniqueItems"] = True
        return schema
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"items": _type_schema(args[0], defs), "type": "array"}
        return {"maxItems": len(args), "minItems": len(args), "prefixItems": [_type_schema(a, defs) for a in args],
                "type": "array"}
    if origin is dict:
        values = _type_schema(args[1], defs) if args else {}
        return {"additionalProperties": values if values else True, "type": "object"}
    raise _unsupported(annotation)


def _apply_constraints(schema, constraints):
    if not constraints:
        return
    if "anyOf" in schema:
        for branch in schema["anyOf"]:
            if branch.get("type") != "null":
                _apply_constraints(branch, constraints)
        return
    kind = schema.get("type")
    for name, value in constraints.items():
        if name in _NUMBER_KEYS:
            schema[_NUMBER_KEYS[name]] = value
        elif name == "pattern":
            schema["pattern"] = value
        elif name in ("min_length", "max_length"):
            suffix = {"string": "Length", "array": "Items", "object": "Properties"}.get(kind, "Length")
            schema[("min" if name == "min_length" else "max") + suffix] = value


def _title_is_set(annotation):
    """Pydantic gives a field a title unless its schema is a reference to a model (possibly nullable)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return False
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _title_is_set(typing.get_args(annotation)[0])
    if _is_union(origin):
        members, nullable = _union_parts(annotation)
        return not (nullable and len(members) == 1 and not _title_is_set(members[0]))
    return True


def _field_title(name):
    return name.title().replace("_", " ")


def _field_schema(name, info, defs):
    schema = _type_schema(info.annotation, defs)
    _apply_constraints(schema, info.constraints)
    if info.default is not _MISSING and info.default_factory is None:
        try:
            schema["default"] = to_jsonable(info.default)
        except TypeError:
            pass
    if info.description:
        schema["description"] = info.description
    if info.title is not None:
        schema["title"] = info.title
    elif _title_is_set(info.annotation):
        schema["title"] = _field_title(name)
    if info.examples is not None:
        schema["examples"] = to_jsonable(info.examples)
    extra = info.json_schema_extra
    if isinstance(extra, dict):
        schema.update(copy.deepcopy(extra))
    elif callable(extra):
        extra(schema)
    return schema


def _sorted_schema(value, parent=None):
    if isinstance(value, dict):
        keys = value.keys() if parent in ("properties", "default") else sorted(value)
        return {key: _sorted_schema(value[key], key) for key in keys}
    if isinstance(value, list):
        return [_sorted_schema(item, parent) for item in value]
    return value


def to_jsonable(value):
    """Pydantic's JSON mode: models dumped, tuples and sets as lists, dates as ISO text."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k if isinstance(k, str) else str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _dump(value, mode):
    if isinstance(value, BaseModel):
        return value.model_dump(mode=mode)
    if isinstance(value, (list, tuple, set, frozenset)) and mode == "json":
        return [_dump(v, mode) for v in value]
    if isinstance(value, list):
        return [_dump(v, mode) for v in value]
    if isinstance(value, tuple):
        return tuple(_dump(v, mode) for v in value)
    if isinstance(value, dict):
        return {k: _dump(v, mode) for k, v in value.items()}
    if mode == "json" and isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    return value


# ---------------------------------------------------------------------------------------------------------------
# Models


class _Unresolved(Exception):
    """An annotation names something not defined (yet): the field waits for model_rebuild() or first use."""


def _annotation_namespace(cls, frame):
    """Where a class's annotations are resolved: the defining code's globals, then its locals (live: a class defined
    later in the same code is found at first use), then the class itself (self-references)."""
    return frame.f_globals, collections.ChainMap({cls.__name__: cls}, frame.f_locals)


def _evaluate(text, namespace):
    try:
        return eval(text, namespace[0], namespace[1])
    except NameError as error:
        raise _Unresolved(error.name or str(error)) from None


_REBUILT_ORIGINS = (list, set, frozenset, tuple, dict, type)


def _resolve(annotation, namespace):
    """The annotation with every string and ForwardRef in it evaluated (Literal values are left alone)."""
    if isinstance(annotation, str):
        return _resolve(_evaluate(annotation, namespace), namespace)
    if isinstance(annotation, typing.ForwardRef):
        return _resolve(_evaluate(annotation.__forward_arg__, namespace), namespace)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if not args or origin is typing.Literal:
        return annotation
    if origin is typing.Annotated:
        return typing.Annotated[(_resolve(args[0], namespace), *args[1:])]
    if _is_union(origin):
        return typing.Union[tuple(_resolve(a, namespace) for a in args)]
    if origin in _REBUILT_ORIGINS:
        return origin[tuple(_resolve(a, namespace) for a in args)]
    return annotation


def _raw_annotations(cls):
    """The class's own annotations as written: values, with ForwardRefs where a name is not defined where
    Python evaluates annotations (the class's globals)."""
    if _annotationlib is None:
        return dict(cls.__dict__.get("__annotations__", {}))
    try:
        return _annotationlib.get_annotations(cls)
    except NameError:
        return _annotationlib.get_annotations(cls, format=_annotationlib.Format.FORWARDREF)


def _is_class_var(annotation):
    return annotation is typing.ClassVar or typing.get_origin(annotation) is typing.ClassVar


_CONFIG_KEYS = frozenset(("extra", "title", "frozen", "str_strip_whitespace", "arbitrary_types_allowed",
                          "populate_by_name", "validate_assignment", "use_enum_values"))


def _settle(info, annotation):
    info.annotation, info.pending = annotation, None
    validate = _validator(annotation)
    info.validate = _constrained(validate, info.constraints) if info.constraints else validate


class PydanticUserError(TypeError):
    pass


_TICK = "\x60"  # a backquote, which cannot appear in this TypeScript template literal


def _complete(cls):
    """Resolves the annotations left waiting for a later definition; raises Pydantic's error if one still is."""
    for info in cls.__pydantic_fields__.values():
        if info.pending is None:
            continue
        try:
            _settle(info, _resolve(info.annotation, info.pending))
        except _Unresolved as missing:
            raise PydanticUserError(f"{_TICK}{cls.__name__}{_TICK} is not fully defined; you should define "
                                    f"{_TICK}{missing}{_TICK}, then call {_TICK}{cls.__name__}.model_rebuild(){_TICK}.") from None


class ModelMetaclass(type):
    def __new__(mcs, name, bases, namespace, **kwargs):
        config_kwargs = {k: kwargs.pop(k) for k in list(kwargs) if k in _CONFIG_KEYS}
        cls = super().__new__(mcs, name, bases, namespace, **kwargs)
        config = {}
        for base in reversed(cls.__mro__[1:]):
            config.update(base.__dict__.get("model_config", {}) if isinstance(base, ModelMetaclass) else {})
        config.update(namespace.get("model_config", {}))
        config.update(config_kwargs)
        cls.model_config = config
        fields = {}
        for base in reversed(cls.__mro__[1:]):
            if isinstance(base, ModelMetaclass):
                fields.update(base.__dict__.get("__pydantic_fields__", {}))
        namespace_of_annotations = _annotation_namespace(cls, sys._getframe(1))
        own = {}
        for field_name, annotation in _raw_annotations(cls).items():
            waiting = False
            try:
                own[field_name] = _resolve(annotation, namespace_of_annotations)
            except _Unresolved:
                own[field_name], waiting = annotation, True
            if field_name.startswith("_") or field_name == "model_config" or _is_class_var(own[field_name]):
                continue
            value = namespace.get(field_name, _MISSING)
            info = value.copy() if isinstance(value, FieldInfo) else FieldInfo(default=value)
            if waiting:
                info.annotation, info.pending = annotation, namespace_of_annotations
            else:
                _settle(info, own[field_name])
            fields[field_name] = info
            if field_name in cls.__dict__:
                delattr(cls, field_name)
        cls.__pydantic_fields__ = fields
        cls.model_fields = fields
        cls.__own_annotations__ = own
        cls.__pydantic_init_subclass__(**kwargs)
        return cls


class BaseModel(metaclass=ModelMetaclass):
    model_config = ConfigDict()

    def __init__(self, /, **data):
        self._karenina_init(data, (), frozenset())

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs):
        pass

    def _karenina_init(self, data, loc, loose):
        """Validates data into this (new) instance; fields named in loose are taken as given, unvalidated."""
        cls = type(self)
        _complete(cls)
        values, errors = {}, []
        for name, info in cls.__pydantic_fields__.items():
            if name in data:
                if name in loose:
                    values[name] = data[name]
                    continue
                try:
                    values[name] = info.validate(data[name], loc + (name,), False)
                except _Invalid as invalid:
                    errors.extend(invalid.errors)
            elif not info.is_required():
                values[name] = info.get_default()
            elif name in loose:
                values[name] = None
            else:
                errors.append({"type": "missing", "loc": loc + (name,), "msg": "Field required", "input": data})
        extra_mode = cls.model_config.get("extra", "ignore")
        extras = {}
        for key, value in data.items():
            if key in cls.__pydantic_fields__:
                continue
            if extra_mode == "allow":
                extras[key] = value
            elif extra_mode == "forbid":
                errors.append({"type": "extra_forbidden", "loc": loc + (key,), "msg": "Extra inputs are not permitted",
                               "input": value})
        if errors:
            if loc:
                raise _Invalid(errors)
            raise ValidationError(cls.__name__, errors)
        self.__dict__.update(values)
        object.__setattr__(self, "__pydantic_extra__", extras if extra_mode == "allow" else None)
        self.model_post_init(None)

    def model_post_init(self, context, /):
        pass

    def __getattr__(self, name):
        extras = self.__dict__.get("__pydantic_extra__")
        if extras is not None and name in extras:
            return extras[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        cls = type(self)
        if name in cls.__pydantic_fields__ or name.startswith("_") or isinstance(getattr(cls, name, None), property):
            object.__setattr__(self, name, value)
            return
        extras = self.__dict__.get("__pydantic_extra__")
        if extras is None:
            raise ValueError(f'"{cls.__name__}" object has no field "{name}"')
        extras[name] = value

    def __delattr__(self, name):
        extras = self.__dict__.get("__pydantic_extra__")
        if extras is not None and name in extras:
            del extras[name]
        else:
            object.__delattr__(self, name)

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self.model_dump() == other.model_dump()

    __hash__ = None

    def __repr_args__(self):
        for name in type(self).__pydantic_fields__:
            yield name, self.__dict__.get(name)
        yield from (self.__dict__.get("__pydantic_extra__") or {}).items()

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.__repr_args__())})"

    __str__ = __repr__

    @property
    def model_extra(self):
        return self.__dict__.get("__pydantic_extra__")

    @classmethod
    def model_validate(cls, obj):
        if isinstance(obj, cls):
            return obj
        if not isinstance(obj, dict):
            raise ValidationError(cls.__name__, [{"type": "model_type", "loc": (), "input": obj,
                                                  "msg": f"Input should be a valid dictionary or instance of {cls.__name__}"}])
        return cls(**obj)

    @classmethod
    def model_construct(cls, **values):
        """An instance without validation (defaults filled in), then the post-init hook, as in Pydantic."""
        instance = cls.__new__(cls)
        data = {}
        for name, info in cls.__pydantic_fields__.items():
            if name in values:
                data[name] = values[name]
            elif not info.is_required():
                data[name] = info.get_default()
        extras = {k: v for k, v in values.items() if k not in cls.__pydantic_fields__}
        instance.__dict__.update(data)
        allow = cls.model_config.get("extra") == "allow"
        object.__setattr__(instance, "__pydantic_extra__", extras if allow else None)
        instance.model_post_init(None)
        return instance

    def model_dump(self, *, mode="python", exclude_none=False):
        out = {}
        for name in type(self).__pydantic_fields__:
            if name in self.__dict__:
                out[name] = _dump(self.__dict__[name], mode)
        for name, value in (self.__dict__.get("__pydantic_extra__") or {}).items():
            out[name] = _dump(value, mode)
        return {k: v for k, v in out.items() if v is not None} if exclude_none else out

    def model_dump_json(self):
        import json
        return json.dumps(self.model_dump(mode="json"))

    @classmethod
    def model_rebuild(cls, **kwargs):
        """Resolves annotations that named a class defined later (True), as Pydantic does."""
        _complete(cls)
        return True

    @classmethod
    def _karenina_schema(cls, defs):
        _complete(cls)
        properties, required = {}, []
        for name, info in cls.__pydantic_fields__.items():
            properties[name] = _field_schema(name, info, defs)
            if info.is_required():
                required.append(name)
        schema = {"properties": properties, "title": cls.model_config.get("title") or cls.__name__, "type": "object"}
        if required:
            schema["required"] = required
        extra = cls.model_config.get("extra")
        if extra in ("allow", "forbid"):
            schema["additionalProperties"] = extra == "allow"
        doc = cls.__dict__.get("__doc__")
        if doc:
            schema["description"] = inspect.cleandoc(doc)
        return schema

    @classmethod
    def model_json_schema(cls):
        defs = {}
        schema = cls._karenina_schema(defs)
        if defs:
            schema["$defs"] = defs
        return _sorted_schema(schema)
