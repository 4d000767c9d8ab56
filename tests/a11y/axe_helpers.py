"""axe-core (from npm, tests/a11y/package.json; `./run test` installs it) run inside a Playwright page: the
WCAG 2.x A and AA rules, the violations of serious or critical impact named one a line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


def axe_script() -> str:
    if not AXE.exists():
        pytest.skip(f"needs axe-core from npm in {AXE.parent} (`npm ci --prefix tests/a11y`, run by ./run test; "
                    "Debian package npm)")
    return AXE.read_text(encoding="utf-8")


def serious_violations(page: Any, where: str = "") -> list[str]:
    """axe's serious and critical violations of the page as it is now (its context must bypass the page's CSP:
    axe is a script the page itself does not load)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_script())
    result = page.evaluate("""async () => {
        const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
        const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
        return r.violations.map((v) => ({id: v.id, impact: v.impact,
            nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': '
                                           + (n.failureSummary || '').split('\\n')[1])}));
    }""")
    return [f"{where} {v['id']} ({v['impact']}): {'; '.join(v['nodes'])}" for v in result if v["impact"] in SERIOUS]
