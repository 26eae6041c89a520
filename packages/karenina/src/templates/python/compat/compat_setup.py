# Run first by the trusted setup of the template sandbox (see compat-setup.ts, which appends the calls): the
# helpers that put each private module's source into sys.modules and build the original's public module tree.
import sys, types

def _attach(name, module):
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)

def register(name, source):
    module = types.ModuleType(name)
    sys.modules[name] = module
    try:
        exec(compile(source, "<" + name + ">", "exec", dont_inherit=True), module.__dict__)
    except BaseException:
        del sys.modules[name]
        raise

def publish(name, names, package):
    catalogue = sys.modules["_karenina_public"].CATALOGUE
    module = types.ModuleType(name)
    if package:
        module.__path__ = []
    for attribute in names:
        setattr(module, attribute, catalogue[attribute])
    module.__all__ = [attribute for attribute in names if not attribute.startswith("_")]
    _attach(name, module)
