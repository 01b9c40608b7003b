"""The memory check: a result refused, before any work, when it would not fit in the memory
available (see :mod:`geoik.checks`)."""

from __future__ import annotations

import os

from geoik.errors import InvalidOptionError


def memory_limit() -> int:
    """Bytes of memory a result may take: what the machine has available now (Linux:
    ``MemAvailable`` of ``/proc/meminfo``, and no more than a control group's limit leaves),
    else its physical memory. Read at each call: the memory a result needs is checked against
    what is there when it is asked for."""
    room = _meminfo_available()
    if room is None:
        try:
            room = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            return 2**63 - 1
    for limit, usage in (
        ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
        (
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "/sys/fs/cgroup/memory/memory.usage_in_bytes",
        ),
    ):
        most, used = _read_int(limit), _read_int(usage)
        if most is not None and used is not None and most < room + used:
            room = max(0, most - used)
    return room


def _meminfo_available() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _read_int(path: str) -> int | None:
    """The integer a control-group file holds, or None (missing, or ``max``)."""
    try:
        with open(path, encoding="ascii") as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


_SMALL_RESULT = 1 << 26
"""Results of at most this many bytes (64 MiB) are not checked against the memory available."""


def check_memory(nbytes: float, what: str, name: str) -> None:
    """Refuse, before any work, a result of ``nbytes`` that would not fit in the memory
    available (:func:`memory_limit`): :class:`~geoik.InvalidOptionError` naming the argument
    ``name`` that asks for it, ``what`` is asked for (e.g. ``"100,000,000 targets"``), the
    size and the limit."""
    if nbytes <= _SMALL_RESULT:  # not worth reading the system's figures
        return
    limit = memory_limit()
    if nbytes <= limit:
        return
    raise InvalidOptionError(
        f"expected results that fit in the memory available ({_bytes(limit)}), got {what}, "
        f"about {_bytes(nbytes)}",
        argument=name,
    )


def _bytes(n: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n / 1e3:.3g} kB"
