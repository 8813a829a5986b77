"""OpenTelemetry in and out: spans a user's pipeline exports become tgneo traces (``receive``), and tgneo's
traces leave as OTLP ``gen_ai.*`` spans whose attributes name their PROV entities (``export``)."""
