"""OpenTelemetry in and out, the pure half (the layers hold the rest, each named ``otlp_receive``).

In: spans a user's pipeline exports become tgneo traces — :mod:`~tgneo.otlp.receive` reads an OTLP payload into
spans; ``web/otlp_receive.py`` is ``POST /v1/traces``, ``service/otlp_receive.py`` records each whole span tree,
``store/otlp_receive.py`` holds span trees until they are whole.

Out: tgneo's traces leave as OTLP ``gen_ai.*`` spans whose attributes name their PROV entities —
:mod:`~tgneo.otlp.export` turns a trace into spans (the one mapping, and its OTLP/JSON), :mod:`~tgneo.otlp.export_http`
reads where they go (``OTEL_EXPORTER_OTLP_*``) and hands them, as :mod:`~tgneo.otlp.export_sdk` builds them, to the
OpenTelemetry SDK's batch processor and OTLP/HTTP exporter. Spans tgneo exported are never recorded by its own
receiver a second time (:mod:`~tgneo.otlp.receive`).
"""
