"""Render the text templates in ``prompts/`` (Jinja2, StrictUndefined: a missing variable fails)."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import jinja2

PROMPTS_DIR = Path(__file__).resolve().parents[2] / "prompts"


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(PROMPTS_DIR)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=False,
        autoescape=False,
    )


def render(template: str, **variables: object) -> str:
    """Render ``prompts/<template>`` with ``variables``.

    Raises:
        jinja2.TemplateNotFound: no such template.
        jinja2.UndefinedError: the template uses a variable that was not given.
    """
    return _env().get_template(template).render(**variables).strip()


def prompts_digest() -> str:
    """SHA-256 over every template: recorded with each run so its prompts can be identified."""
    h = hashlib.sha256()
    for path in sorted(PROMPTS_DIR.rglob("*.j2")):
        h.update(str(path.relative_to(PROMPTS_DIR)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()
