"""Reproductions of the seeds' experiments: ``geoik experiment NAME``.

Each experiment is a subpackage whose ``__init__`` exposes ``NAME``, ``TITLE`` and
``run(out, seed=0, quick=False, progress=None) -> ExperimentResult``, which writes Markdown and
CSV tables (and PNG figures) into ``out``. Published figures sit beside geoik's in every table.
An experiment may also expose ``kernels()``: the ``(function, argument types)`` pairs its maps
compile, which ``geoik experiment all`` has compiled by a helper process while the experiments
before it run (:func:`geoik.jit.compiling_behind`).

Within a subpackage, ``study`` holds the settings, the published numbers and the computations;
the modules that build tables and figures import ``study``, and ``__init__`` imports them all;
none imports ``__init__`` back. ``__init__`` re-exports ``study``'s public names, but the
settings are read from ``study``: change them there.

May import the library's layers up to :mod:`geoik.maps`; only the interfaces
(:mod:`geoik.commands`, :mod:`geoik.viewer`) import it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["EXPERIMENTS", "get"]

_MODULES = ("triangulation_2007", "single_pass_2009", "metric_maps_2010")


def _load() -> dict[str, ModuleType]:
    mods = [importlib.import_module(f"geoik.experiments.{m}") for m in _MODULES]
    return {m.NAME: m for m in mods}


EXPERIMENTS: dict[str, ModuleType] = _load()


def get(name: str) -> ModuleType:
    """The experiment called ``name`` (its package); a :class:`~geoik.GeoIKError` about
    ``experiment`` naming the known ones otherwise."""
    from geoik.errors import GeoIKError

    try:
        return EXPERIMENTS[name]
    except KeyError:
        known = ", ".join([*EXPERIMENTS, "all"])
        raise GeoIKError(f"expected one of {known}, got {name!r}", argument="experiment") from None
