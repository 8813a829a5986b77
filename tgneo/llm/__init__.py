"""LLMs and embedders behind one small interface (``tgneo.llm.base``), chosen by ``TGNEO_LLM``.

Providers: ``offline`` (the default: deterministic, no network, honest about what it is) and
``openai`` (any OpenAI-compatible server). :func:`tgneo.llm.registry.get_llm` builds the configured one.
"""
