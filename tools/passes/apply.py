"""Use passes in your own model: one ``torch.compile`` line.

::

    import passagent
    compiled = torch.compile(model, backend=passagent.backend("runs/.../best_pass"))
    # or, several passes in order, with torch.compile's other arguments:
    compiled = passagent.compile(model, passes=["a.py", "b_pass_dir"], dynamic=False)

Every FX graph Dynamo captures (one per graph break) gets the passes' rules, in the order
given (:mod:`.compose`), then Inductor compiles the rewritten graph, exactly as the evaluation
harness does (:class:`.backend.PassBackend`). The passes' code runs in this process: use
passes you trust (``passagent apply`` measures a pass on a graph in the sandboxed worker).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import torch

from .backend import PassBackend
from .compose import composed_digest, load_passes


def backend(*passes: str | Path, inductor: bool = True, options: dict[str, Any] | None = None) -> PassBackend:
    """A ``torch.compile`` backend applying ``passes`` (first to last) to every Dynamo graph.

    Args:
        passes: pass files or PassNet ``pass_dir/`` folders.
        inductor: False runs the rewritten graphs eagerly instead of compiling them (to see
            what the passes do, or to debug a replacement).
        options: Inductor config values for these compiles only (as ``torch.compile``'s
            ``options=``; they never change the global config).

    Returns:
        A :class:`.backend.PassBackend`. After the first call of the compiled model,
        ``matches_by_rule()`` gives the matches per rule (``pass:rule`` for several passes),
        ``graphs_after`` the rewritten FX code, and ``diagnostics()`` why a rule matched nothing.
        Its Inductor compiles are keyed in the FX-graph cache by the passes' source digest.

    Raises:
        PassLoadError: a path does not exist or its rule list is malformed.
        RuleLoadFailure: a rule file fails to import or lacks a contract function.
    """
    return PassBackend(
        load_passes(list(passes)),
        use_inductor=inductor,
        check_no_change=False,  # an evaluation check (two ATen traces per graph): not for users
        cache_digest=composed_digest(list(passes)),
        inductor_options=options,
    )


def compile_model(model: torch.nn.Module | Any, passes: str | Path | Sequence[str | Path], *,
                  options: dict[str, Any] | None = None, **compile_kwargs: Any) -> Any:
    """``torch.compile(model, backend=backend(*passes, options=options), **compile_kwargs)``.

    Exported as ``passagent.compile``. To read the match counts afterwards, build the backend
    with :func:`backend` and pass it to ``torch.compile`` yourself (nothing is stored on the
    model: an attribute set on a compiled module lands on the user's original module).

    Args:
        model: an ``nn.Module`` or a function.
        passes: one pass path or a sequence of them, applied in that order.
        options: Inductor config values for these compiles only.
        compile_kwargs: other ``torch.compile`` arguments (``dynamic``, ``fullgraph``, ...);
            ``backend`` is not one of them.

    Raises:
        TypeError: ``backend=`` was given.
        PassLoadError, RuleLoadFailure: see :func:`backend`.
    """
    if "backend" in compile_kwargs:
        raise TypeError("passagent.compile builds the backend from passes=; do not pass backend=")
    paths = [passes] if isinstance(passes, (str, Path)) else list(passes)
    return torch.compile(model, backend=backend(*paths, options=options), **compile_kwargs)
