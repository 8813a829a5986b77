"""Neo4j Browser as a trace explorer: a GraSS style sheet and a ``:play`` guide, both built from tables.

``style.py`` turns one row per label (colour, size, caption property) into the style sheet that
``:style <url>`` loads; ``guide.py`` turns the named queries in ``tgneo/cypher/`` into the slides that
``:play <url>`` shows, each query runnable with its ``:param`` lines. Neither touches a database or
Flask: ``tgneo.web.browser`` serves them and ``tgneo browser`` prints how to load them.
"""
