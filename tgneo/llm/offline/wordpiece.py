"""BERT's uncased WordPiece tokenizer in plain Python, read from a Hugging Face ``tokenizer.json``.

Why not Hugging Face's ``tokenizers``: it is 12 MB of Rust and requires the hub client, for a tokenizer that is
a page of rules — and every megabyte counts against the 150 MB a default embedder may add. This implements the
exact pipeline such a ``tokenizer.json`` declares for all-MiniLM-L6-v2 and BERT-uncased models, and the tests
check it gives the same ids as ``tokenizers`` on both evaluation corpora (``tests/test_minilm.py``):

1. special tokens (``[CLS]``, ``[SEP]`` …) written in the text are kept whole, as added tokens are;
2. ``BertNormalizer``: drop NUL, U+FFFD and control characters, turn whitespace into spaces, put spaces around
   CJK ideographs, strip accents (NFD, no non-spacing marks), lowercase;
3. ``BertPreTokenizer``: split on whitespace, and make every punctuation character a word of its own;
4. ``WordPiece``: each word greedily into the longest pieces of the vocabulary (``##`` continuing), or
   ``[UNK]`` for a word with a piece no entry matches or of over 100 characters;
5. ``[CLS] … [SEP]`` around the pieces, cut to ``max_length`` in all.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from tgneo.errors import ConfigError

__all__ = ["WordPiece"]

_CJK = (
    (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F), (0x2B920, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F),
)  # fmt: skip
_OTHER = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
_PUNCTUATION = frozenset({"Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps"})
_WHITESPACE = re.compile(r"\s+")


def _normal_char(c: str) -> str:
    """One character as ``BertNormalizer`` leaves it (before accents and case): '' when dropped."""
    code = ord(c)
    if c in "\t\n\r" or (c.isspace() and unicodedata.category(c) not in _OTHER):
        return " "
    if code == 0 or code == 0xFFFD or unicodedata.category(c) in _OTHER:
        return ""
    if any(lo <= code <= hi for lo, hi in _CJK):
        return f" {c} "
    return c


def _is_punctuation(c: str) -> bool:
    return (c.isascii() and not c.isalnum() and c.isprintable() and not c.isspace()) or (
        unicodedata.category(c) in _PUNCTUATION
    )


class WordPiece:
    """The tokenizer a ``tokenizer.json`` of type WordPiece describes (see the module docstring)."""

    def __init__(self, config: str, max_length: int) -> None:
        """
        Raises:
            ConfigError: ``config`` is not a BERT-uncased WordPiece tokenizer.json.
        """
        try:
            spec = json.loads(config)
            model = spec["model"]
            if model["type"] != "WordPiece" or spec["normalizer"]["type"] != "BertNormalizer":
                raise ConfigError(f"not a BERT WordPiece tokenizer: {model['type']}, {spec['normalizer']['type']}")
            if not spec["normalizer"].get("lowercase", False):
                raise ConfigError("not an uncased BERT tokenizer: its normalizer keeps case")
            self.vocab: dict[str, int] = model["vocab"]
            self.unk = self.vocab[model["unk_token"]]
            self.prefix: str = model.get("continuing_subword_prefix", "##")
            self.max_chars: int = model.get("max_input_chars_per_word", 100)
            self.cls, self.sep = self.vocab["[CLS]"], self.vocab["[SEP]"]
            specials = [t["content"] for t in spec.get("added_tokens", []) if t.get("special")]
        except (KeyError, TypeError, ValueError) as e:
            raise ConfigError(f"not a tokenizer.json tgneo reads: {e}") from e
        self.max_length = max_length
        self._specials = re.compile("(" + "|".join(map(re.escape, specials)) + ")") if specials else None
        self._pieces = lru_cache(maxsize=65536)(self._word_pieces)

    def _word_pieces(self, word: str) -> tuple[int, ...]:
        if len(word) > self.max_chars:
            return (self.unk,)
        out: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else self.prefix + word[start:end]
                found = self.vocab.get(piece)
                if found is not None:
                    out.append(found)
                    break
                end -= 1
            else:
                return (self.unk,)
            start = end
        return tuple(out)

    def _words(self, text: str) -> list[str]:
        text = "".join(map(_normal_char, text)) if not text.isascii() else text.translate(_ASCII_CLEAN)
        if not text.isascii():
            text = "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")
        text = text.lower()
        words: list[str] = []
        for chunk in _WHITESPACE.split(text):
            start = 0
            for i, c in enumerate(chunk):
                if _is_punctuation(c):
                    if i > start:
                        words.append(chunk[start:i])
                    words.append(c)
                    start = i + 1
            if start < len(chunk):
                words.append(chunk[start:])
        return words

    def ids(self, text: str) -> list[int]:
        """``[CLS]``, the text's word pieces, ``[SEP]``: at most ``max_length`` ids."""
        out: list[int] = []
        parts = self._specials.split(text) if self._specials else [text]
        for i, part in enumerate(parts):
            if i % 2:  # a special token written in the text
                out.append(self.vocab[part])
                continue
            for word in self._words(part):
                out.extend(self._pieces(word))
        return [self.cls, *out[: self.max_length - 2], self.sep]

    def batch(self, texts: Sequence[str]) -> list[list[int]]:
        return [self.ids(text) for text in texts]


_ASCII_CLEAN = {c: (" " if chr(c) in "\t\n\r" else None) for c in range(32)} | {0x7F: None}
"""ASCII's control characters, dropped, and its whitespace, made spaces (the common case, done as one translate)."""
