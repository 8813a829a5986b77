"""docker-compose.yml cannot run here (no Docker engine), so its contract is checked by reading it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data


def test_neo4j_service_is_5_26_community_with_browser_bolt_healthcheck_and_volume() -> None:
    neo4j = _compose()["services"]["neo4j"]
    assert neo4j["image"] == "neo4j:5.26-community"
    assert {"127.0.0.1:7474:7474", "127.0.0.1:7687:7687"} <= set(neo4j["ports"])
    assert "cypher-shell" in " ".join(neo4j["healthcheck"]["test"])
    volume = neo4j["volumes"][0].split(":")[0]
    assert volume in _compose()["volumes"]


def test_tgneo_service_is_built_here_and_wired_by_neo4j_variables() -> None:
    tgneo = _compose()["services"]["tgneo"]
    assert tgneo["build"] == "."
    assert (ROOT / "Dockerfile").exists()
    assert tgneo["depends_on"]["neo4j"]["condition"] == "service_healthy"
    assert {"NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE"} <= set(tgneo["environment"])
    assert tgneo["environment"]["NEO4J_URI"] == "bolt://neo4j:7687"
    assert "TGNEO_TOKENS" in tgneo["environment"], "the container binds beyond loopback, so tokens are required"
