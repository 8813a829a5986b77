"""Which graph model a database holds, and the one check that keeps tgneo off a model it cannot read.

tgneo's graph model changed once (model 1: one ``:Statement`` node per triple with ``:Resource`` nodes;
model 2: the native knowledge graph of :mod:`tgneo.native`, tgneo's own ``Tg…`` labels). A database is
*current* when its ``(:TgStore {model})`` node says :data:`MODEL`; *fresh* when it has neither that node
nor anything model 1 installed (its ``tgneo_…`` indexes on ``Resource``, ``Statement``, … are the mark,
since model 1 installed them on every start); otherwise it holds model 1, or a migration that did not
finish, and every store refuses it with :class:`~tgneo.errors.NeedsMigration` naming the command that
moves it on. The check runs once per :class:`~tgneo.store.driver.Store`, before its first query.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tgneo.errors import NeedsMigration
from tgneo.store.queries import Q

if TYPE_CHECKING:
    from tgneo.store.driver import Store

MODEL = 2
"""The graph model this version of tgneo reads and writes."""
MIGRATE = "tgneo db migrate"


def state(store: Store) -> tuple[int | None, str | None, list[str]]:
    """``(model, migration under way, indexes of model 1)`` as the database holds them."""
    record = store.read_unchecked(Q.model_state)[0]
    legacy = [r["name"] for r in store.read_unchecked(Q.legacy_schema)]
    return record["model"], record["migration"], legacy


def check(store: Store) -> None:
    """Refuse a database that holds another graph model than :data:`MODEL`.

    Raises:
        NeedsMigration: model 1's data, or an unfinished migration (the message names ``tgneo db migrate``).
    """
    model, migration, legacy = state(store)
    if model == MODEL and migration is None and not legacy:
        return
    if migration is not None:
        raise NeedsMigration(
            f"the migration of this database to tgneo's graph model {MODEL} did not finish (it stopped at "
            f"{migration}); run `{MIGRATE}` to finish it"
        )
    if model is not None and model > MODEL:
        raise NeedsMigration(f"this database holds tgneo's graph model {model}, newer than this tgneo ({MODEL})")
    if legacy or (model is not None and model < MODEL):
        raise NeedsMigration(
            f"this database holds tgneo's previous graph model (one :Statement node per triple, found by its "
            f"indexes {', '.join(sorted(legacy)[:3]) or 'model ' + str(model)}); run `{MIGRATE}` to move it to "
            f"the native model in place. Until then no other tgneo command reads or writes it."
        )


def mark_current(store: Store) -> None:
    """Record that a fresh database holds :data:`MODEL`, once its schema is installed (a record that exists is kept)."""
    store.write(Q.model_init, model=MODEL)
