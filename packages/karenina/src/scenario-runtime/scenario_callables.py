# Run once per interpreter as the trusted setup of scenario callables (see scenario-callables.ts): registers the
# module _karenina_scenario_callables. Each of its functions takes the callable's Python source (a lambda
# expression, as the original Karenina stores it), evaluates it in a fresh namespace, and calls it on the data
# the original passes: plain dicts for state_update, an attribute view of the state or of the execution result
# (built from the JSON the host sent) for conditions and outcome criteria. Dicts stay dicts.
import builtins, sys, types

# What the host does not send (large, and rarely what a routing or outcome rule needs).
WITHHELD = {
    "TurnRecord": ("question_messages", "trace_messages"),
    "ScenarioExecutionResult": ("turn_results",),
}


class Record:
    """Attribute access to a runtime object sent as JSON: ScenarioState, TurnRecord, ScenarioExecutionResult."""

    def __init__(self, kind, fields):
        self.__dict__.update(fields)
        object.__setattr__(self, "_karenina_kind", kind)

    def __getattr__(self, name):  # called only for attributes that do not exist
        kind = self.__dict__.get("_karenina_kind", "Record")
        if name in WITHHELD.get(kind, ()):
            raise AttributeError(f"{kind}.{name} is not given to scenario callables run from Python source")
        raise AttributeError(f"'{kind}' object has no attribute '{name}'")

    def model_dump(self):
        return {key: plain(value) for key, value in self.__dict__.items() if key != "_karenina_kind"}

    def __repr__(self):
        kind = self.__dict__.get("_karenina_kind", "Record")
        return f"{kind}({', '.join(f'{k}={v!r}' for k, v in self.model_dump().items())})"


class AttrDict(dict):
    """A parsed answer: a dict whose keys also read as attributes, as the original's Answer object's fields do."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"'Answer' object has no attribute '{name}'") from None


def plain(value):
    if isinstance(value, Record):
        return value.model_dump()
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


def turn(data):
    answer = data.get("parsed_answer")
    if isinstance(answer, dict):
        data["parsed_answer"] = AttrDict(answer)
    return Record("TurnRecord", data)


def state(data, history=None):
    data["history"] = history if history is not None else [turn(t) for t in data.get("history", [])]
    return Record("ScenarioState", data)


def result(data):
    history = [turn(t) for t in data.get("history", [])]
    data["history"] = history
    final = data.get("final_state")
    if isinstance(final, dict):
        # The host leaves final_state.history out when it is the result's own history.
        data["final_state"] = state(final, None if "history" in final else history)
    failure = data.get("terminal_failure")
    if isinstance(failure, dict):
        data["terminal_failure"] = Record("ScenarioTerminalFailure", failure)
    return Record("ScenarioExecutionResult", data)


def compiled(source):
    function = eval(compile(source, "<scenario callable>", "eval"), {"__builtins__": builtins})
    if not callable(function):
        raise TypeError(f"the source must be a callable expression such as a lambda, not {type(function).__name__}")
    return function


def condition(source, state_data):
    return bool(compiled(source)(state(state_data)))


def state_update(source, accumulated, parsed):
    return compiled(source)(accumulated, parsed)


def evaluate(source, result_data):
    return compiled(source)(result(result_data))


module = types.ModuleType("_karenina_scenario_callables")
module.condition = condition
module.state_update = state_update
module.evaluate = evaluate
sys.modules["_karenina_scenario_callables"] = module
