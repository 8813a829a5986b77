"""A package installed into a folder as pip installs one, declaring entry points: what a user's plugin is to tgneo."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def installed(
    folder: Path, name: str, entry_points: Mapping[str, Mapping[str, str]], modules: Mapping[str, str] | None = None
) -> Path:
    """Write ``modules`` (file name → source) and ``name``'s ``.dist-info`` declaring ``entry_points`` (group → name
    → ``module:attribute``) into ``folder``, as ``pip install --target folder`` leaves a package; return ``folder``
    (put it on ``PYTHONPATH``)."""
    folder.mkdir(parents=True, exist_ok=True)
    for file, source in (modules or {}).items():
        (folder / file).write_text(source)
    info = folder / f"{name.replace('-', '_')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    groups = [
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in points.items()) for group, points in entry_points.items()
    ]
    (info / "entry_points.txt").write_text("\n".join(groups))
    return folder
