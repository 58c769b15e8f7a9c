"""AltWalker-style test code, run by playtest (docs/graphwalker.md).

AltWalker runs a GraphWalker model with Python test code: a class per model, named after it, with a
method per vertex and edge name, ``setUpModel``/``tearDownModel`` around the model's use and
``setUpRun``/``tearDownRun`` functions of the module around the whole run. This module runs the same
code as a playtest adapter (standard library only, on top of :mod:`playtest_adapter`)::

    playtest run model.json --sut "python3 -m playtest_altwalker tests/test.py"

(the kit installed: ``pip install adapters/python`` or playtest's .deb; from a checkout without it,
``python3 adapters/python/playtest_altwalker.py`` runs this file, which finds the kit beside it.)

playtest imports the model (``Login.e_Submit`` is edge ``e_Submit`` of model ``Login``) and sends
every vertex and edge it visits as a stimulus: the label ``Login.e_Submit`` calls
``Login().e_Submit()``, ``Login.v_Browse`` calls ``v_Browse()`` (the verification at the vertex).
Elements without a name (``Login.#id``) call nothing, as in GraphWalker; a repeated name carries
its id (``Login.e_Back#e7``), which is dropped before the call.

* A method that takes an argument gets the model's ``data`` dict (AltWalker passes its graph data
  there); playtest keeps the model's JavaScript variables in the model's state, so ``data`` is the
  test code's own: one dict per model, kept for the whole run, shared by its methods.
* An ``AssertionError`` in a method is a FAIL of the run, which names the element and the message:
  the kit reports it as the output ``?AssertionError("Login.v_Browse: ...")``, which the model
  never allows. Any other exception ends the run with the verdict ERROR (the test code or the
  system's environment broke).
* A method the class lacks ends the run with the verdict ERROR, naming the class and the method.
"""

import importlib.util
import inspect
import os
import sys

import playtest_adapter as pa  # beside this module, installed or in adapters/python

__all__ = ["AltWalkerAdapter", "split_label", "main"]


def split_label(label):
    """``(model, element)`` of a label: ``split_label("Login.e_Back#e7") == ("Login", "e_Back")``;
    the element is ``""`` for an unnamed one (``Login.#id``)."""
    model, dot, element = label.partition(".")
    if not dot:
        raise pa.AdapterFailure("the label %r is no GraphWalker element (Model.name)" % label)
    return model, element.split("#", 1)[0]


class AltWalkerAdapter(pa.Adapter):
    """Plays the stimuli of an imported GraphWalker model on the classes of ``module``."""

    def __init__(self, module):
        super().__init__()
        self.module = module
        self.instances = {}
        self.data = {}

    def _instance(self, model):
        if model not in self.instances:
            cls = getattr(self.module, model, None)
            if not inspect.isclass(cls):
                raise pa.AdapterFailure("the test code has no class %s (one class per model, named after it)" % model)
            obj = cls()
            self.data[model] = {}
            self.instances[model] = obj
            setup = getattr(obj, "setUpModel", None)
            if setup:
                self._call(setup, model)
        return self.instances[model]

    def _call(self, method, model):
        params = [p for p in inspect.signature(method).parameters.values()
                  if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        return method(self.data[model]) if params else method()

    def on_start(self):
        setup = getattr(self.module, "setUpRun", None)
        if callable(setup):
            setup()

    def on_stimulus(self, name, args):
        model, element = split_label(name)
        obj = self._instance(model)
        if not element:
            return  # an element without a name: GraphWalker calls nothing
        method = getattr(obj, element, None)
        if not callable(method):
            raise pa.AdapterFailure("class %s has no method %s" % (model, element))
        try:
            self._call(method, model)
        except AssertionError as e:
            message = str(e) or "assertion failed"
            self.output("AssertionError", "%s: %s" % (name, " ".join(message.split())))

    def on_reset(self):
        self.on_stop()
        self.instances = {}
        self.data = {}
        self.on_start()

    def on_stop(self):
        instances, self.instances = self.instances, {}
        for model, obj in instances.items():
            teardown = getattr(obj, "tearDownModel", None)
            if teardown:
                self._call(teardown, model)
        teardown = getattr(self.module, "tearDownRun", None)
        if callable(teardown) and instances:
            teardown()


def load_module(path):
    """The test code: a Python file (tests/test.py) or a package directory (tests/)."""
    if os.path.isdir(path):
        path = os.path.join(path, "__init__.py") if os.path.exists(os.path.join(path, "__init__.py")) \
            else os.path.join(path, "test.py")
    spec = importlib.util.spec_from_file_location("altwalker_tests", path)
    if spec is None or spec.loader is None:
        raise pa.AdapterFailure("cannot load the test code %r" % path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec.loader.exec_module(module)
    return module


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.stderr.write("usage: python3 -m playtest_altwalker TESTS (a test file such as tests/test.py, or its folder)\n")
        return 2
    try:
        module = load_module(argv[0])
    except Exception as e:  # noqa: BLE001 - reported as the protocol's error line
        sys.stdout.write("error cannot load %s: %s: %s\n" % (argv[0], type(e).__name__, " ".join(str(e).split())))
        sys.stdout.flush()
        return 1
    return AltWalkerAdapter(module).run()


if __name__ == "__main__":
    sys.exit(main())
