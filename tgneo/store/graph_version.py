"""Which graph model a database holds, and the verdict that keeps tgneo off a model it cannot read.

tgneo's graph model changed once (model 1: one ``:Statement`` node per triple with ``:Resource`` nodes;
model 2: the native knowledge graph of :mod:`tgneo.native`, tgneo's own ``Tg…`` labels). A database is
*current* when its ``(:TgStore {model})`` node says :data:`MODEL`; *fresh* when it has neither that node
nor anything model 1 installed (its ``tgneo_…`` indexes on ``Resource``, ``Statement``, … are the mark,
since model 1 installed them on every start); otherwise it holds model 1, or a migration that did not
finish, and every store refuses it with :class:`~tgneo.errors.NeedsMigration` naming the command that
moves it on. :meth:`tgneo.store.driver.Store.ensure_model` reads the state once per store, before its first
query, and asks :func:`refuse`.
"""

from __future__ import annotations

from collections.abc import Sequence

from tgneo.errors import NeedsMigration

MODEL = 2
"""The graph model this version of tgneo reads and writes."""
MIGRATE = "tgneo db migrate"


def refuse(model: int | None, migration: str | None, legacy: Sequence[str]) -> None:
    """Raise unless the database is current or fresh (see the module docstring).

    Args:
        model: ``TgStore.model`` (``None``: no record).
        migration: the migration step under way, if one did not finish.
        legacy: the names of model 1's indexes and constraints still installed.

    Raises:
        NeedsMigration: model 1's data, or an unfinished migration (the message names ``tgneo db migrate``).
    """
    if model in (MODEL, None) and migration is None and not legacy:
        return
    if migration is not None:
        raise NeedsMigration(
            f"the migration of this database to tgneo's graph model {MODEL} did not finish (it stopped at "
            f"{migration}); run `{MIGRATE}` to finish it"
        )
    if model is not None and model > MODEL:
        raise NeedsMigration(f"this database holds tgneo's graph model {model}, newer than this tgneo ({MODEL})")
    found = f"found by its indexes {', '.join(sorted(legacy)[:3])}" if legacy else f"model {model}"
    raise NeedsMigration(
        f"this database holds tgneo's previous graph model (one :Statement node per triple, {found}); run "
        f"`{MIGRATE}` to move it to the native model in place. Until then no other tgneo command reads or "
        f"writes it."
    )
