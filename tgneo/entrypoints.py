"""How a user adds to tgneo without editing it: a name registered in Python, or declared by an installed package.

rdflib finds its parsers the same way: each kind of extension is a :class:`Registry` of named factories, holding
the built-ins, what :meth:`Registry.register` adds at run time, and what installed packages declare under the
kind's entry-point group (``[project.entry-points."tgneo.engines"]``, ``"tgneo.providers"``). Installed packages
are scanned once, and only when a name is not known yet: a built-in answers without reading every installed
distribution's metadata (a few milliseconds here, more in larger environments), and a declared factory never
replaces one already known. One that fails to load is logged and left out: a broken package must not stop tgneo.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import Generic, TypeVar

from tgneo.errors import TgneoError

__all__ = ["Registry"]

log = logging.getLogger("tgneo")

F = TypeVar("F", bound=Callable[..., object])


class Registry(Generic[F]):
    """Named factories of one kind of extension (engines, LLM providers).

    Args:
        what: What a factory makes, for messages (``engine``, ``provider``).
        group: The entry-point group installed packages declare theirs under.
        builtins: The factories tgneo ships, by name.
        error: The error a refused name raises (the kind's own: ``BadRequest``, ``ConfigError``).
    """

    def __init__(self, what: str, group: str, builtins: Mapping[str, F], error: type[TgneoError]) -> None:
        self.what = what
        self.group = group
        self.error = error
        self._named: dict[str, F] = dict(builtins)
        self._scanned = False
        self._lock = threading.Lock()

    def register(self, name: str, factory: F, *, replace: bool = False) -> None:
        """Make ``factory`` the one called ``name``.

        Raises:
            TgneoError: (the registry's ``error``) ``name`` is empty or has whitespace, ``factory`` is not callable,
                or ``name`` is taken and ``replace`` is false.
        """
        if not isinstance(name, str) or not name or any(c.isspace() for c in name):
            raise self.error(f"{self.what} name: a non-empty name without spaces, not {name!r}")
        if not callable(factory):
            raise self.error(f"{self.what} {name!r}: the factory must be callable, not {factory!r}")
        with self._lock:
            if name in self._named and not replace and self._named[name] is not factory:
                raise self.error(f"{self.what} {name!r} is registered already (pass replace=True to replace it)")
            self._named[name] = factory

    def names(self) -> tuple[str, ...]:
        """Every name: the built-ins first, then those registered or declared by installed packages."""
        self._scan()
        with self._lock:
            return tuple(self._named)

    def get(self, name: str) -> F | None:
        """The factory called ``name``, if there is one (installed packages scanned only when it is not known)."""
        with self._lock:
            found = self._named.get(name)
        if found is None:
            self._scan()
            with self._lock:
                found = self._named.get(name)
        return found

    def _scan(self) -> None:
        with self._lock:
            if self._scanned:
                return
            self._scanned = True
        for point in entry_points(group=self.group):
            try:
                factory = point.load()
            except Exception:  # a user's package: whatever it raises, the built-ins keep working
                log.warning("%s %r (%s) could not be loaded", self.what, point.name, point.value, exc_info=True)
                continue
            with self._lock:
                self._named.setdefault(point.name, factory)
