# Run once per interpreter as the trusted setup of callable traits (see callable-evaluation.ts): a module whose
# pick(namespace) returns the function the trait's source defines: evaluate, else the one function defined at
# top level.
import sys, types

def pick(namespace):
    chosen = namespace.get("evaluate")
    if callable(chosen):
        return chosen
    defined = [name for name, value in namespace.items()
               if isinstance(value, types.FunctionType) and value.__module__ == namespace.get("__name__")]
    if len(defined) == 1:
        return namespace[defined[0]]
    found = ", ".join(defined) if defined else "none"
    raise LookupError(f"the code must define a function named 'evaluate' or exactly one function (found: {found})")

module = types.ModuleType("_karenina_callable_trait")
module.pick = pick
sys.modules["_karenina_callable_trait"] = module
