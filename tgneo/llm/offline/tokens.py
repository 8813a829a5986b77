"""The offline provider's tokenizer: its counts are the provider's token counts.

A token is a run of letters or digits, or one other non-space character: ``"Marie Curie's"`` is four
tokens (``Marie``, ``Curie``, ``'``, ``s``). Every ``in_tokens``/``out_tokens`` the offline provider
reports is ``len(tokens(text))`` of the prompt it rendered and of the text it answered. (Words, stems
and names are :mod:`tgneo.nlp.words`; sentences are :mod:`tgneo.nlp.segment`.)
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"[^\W_]+|[^\w\s]", re.UNICODE)


def tokens(text: str) -> list[str]:
    """The tokens of ``text`` (see the module docstring)."""
    return _TOKEN.findall(text)


def count(text: str) -> int:
    """How many tokens ``text`` is: the offline provider's token count."""
    return len(_TOKEN.findall(text))
