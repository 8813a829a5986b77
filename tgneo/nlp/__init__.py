"""Prose and technical text, model-free: sentences with their offsets, and the terms a sentence names (pure).

* :mod:`~tgneo.nlp.segment` — the one sentence segmenter: paragraphs, list items, table rows and short
  code blocks, each unit with its character span in the text it came from;
* :mod:`~tgneo.nlp.phrases` — identifiers kept whole (code spans, IRIs, options, environment variables,
  ``snake_case``, ``kebab-case``, ``CamelCase``, dotted names, paths), names, key noun phrases, and the
  key terms two sentences are compared by;
* :mod:`~tgneo.nlp.align` — which sentences support which: lexical overlap of key terms.

The offline provider extracts and answers with these, ingest finds each fact's evidence sentence with
them whichever provider extracted it, and the engines align answer sentences to their evidence.
"""
