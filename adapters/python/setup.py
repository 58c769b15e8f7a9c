"""The kit's modules: every *.py file beside this one (pyproject.toml has the rest)."""
from pathlib import Path

from setuptools import setup

here = Path(__file__).resolve().parent
setup(py_modules=sorted(p.stem for p in here.glob("*.py") if p.name != "setup.py"))
