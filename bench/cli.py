"""Command line of the benchmark pipeline: ``passagent bench capture|build`` and ``passagent tasks list``.

``bench_app`` is a Typer app the main CLI mounts as ``passagent bench``; :func:`tasks_list`
prints the shipped tasks (``passagent tasks list [--category C] [--op OP]``). Both also run as
``python -m passagent.bench.cli ...``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

bench_app = typer.Typer(help="Build the built-in benchmark from real architectures.", no_args_is_help=True,
                        pretty_exceptions_enable=False, add_completion=False)
out = Console() if Console().is_terminal else Console(width=160)  # readable when piped
err = Console(stderr=True)


@bench_app.command("capture")
def capture_cmd(
    names: Optional[list[str]] = typer.Argument(None, help="Architectures to capture (default: all registered)."),
    out_dir: Path = typer.Option(Path("captured"), "--out", "-o", help="Folder for GraphNet samples and capture_log.jsonl."),
    all_variants: bool = typer.Option(False, "--all-variants", help="Every shape and dtype variant, not only the float32 base."),
    seed: int = typer.Option(0, help="Seed of weights and inputs."),
    list_only: bool = typer.Option(False, "--list", help="List the registered architectures and exit."),
) -> None:
    """Capture architectures with Dynamo into validated GraphNet samples; failures are logged and skipped."""
    from .architectures import ARCHITECTURES, VARIANTS, get_architecture
    from .harvest import capture_architectures

    if list_only:
        table = Table("name", "domain", "source", "like", "available")
        for a in ARCHITECTURES:
            why = a.available()
            table.add_row(a.name, a.domain, a.source, a.like, "yes" if why is None else f"no ({why})")
        out.print(table)
        return
    try:
        archs = [get_architecture(n) for n in names] if names else list(ARCHITECTURES)
    except KeyError as exc:
        err.print(f"[red]error:[/red] {exc.args[0]}")
        raise typer.Exit(2) from None
    def show(record: dict) -> None:
        style = {"ok": "green", "partial": "yellow"}.get(record["status"], "red")
        where = f"{record['stage']}: " if record.get("stage") else ""
        detail = f" ({where}{record['reason']})" if record.get("reason") else ""
        graphs = sum(v.get("graphs", 0) for v in record.get("variants", []))
        err.print(f"[{style}]{record['status']:8}[/{style}] {record['arch']}: {graphs} graph(s), "
                  f"{record.get('seconds') or 0:.1f}s{detail}", highlight=False)

    records = capture_architectures(archs, out_dir, seed=seed, variants=VARIANTS if all_variants else VARIANTS[:1],
                                    on_record=show)
    ok = sum(r["status"] in ("ok", "partial") for r in records)
    err.print(f"{ok}/{len(archs)} captured into {out_dir}; log: {out_dir / 'capture_log.jsonl'}")


@bench_app.command("build")
def build_cmd(
    archs_file: Optional[Path] = typer.Option(None, "--archs", help="File with one architecture name a line (default: all)."),
    seed: int = typer.Option(0, help="Seed of weights, inputs, planning and selection."),
    work_dir: Optional[Path] = typer.Option(None, help="Intermediate files (default ~/.cache/passagent/bench)."),
    out_dir: Optional[Path] = typer.Option(None, "--out", help="Where tasks/ and manifest.json go (default: the package)."),
    jobs: int = typer.Option(2, min=1, help="Parallel single-threaded worker processes."),
    measure_tasks: int = typer.Option(200, min=1, help="Task candidates to measure."),
    ship_tasks: int = typer.Option(120, min=1, help="Tasks to ship."),
    max_members: int = typer.Option(6, min=3, max=8, help="Subgraphs per task."),
    fresh: bool = typer.Option(False, "--fresh", help="Discard the work folder and start over."),
) -> None:
    """Capture, cut, dedupe, group, measure and select: write the built-in tasks and manifest (resumable)."""
    from .architectures import architecture_names
    from .build import BuildConfig, build

    cfg = BuildConfig(seed=seed, jobs=jobs, measure_tasks=measure_tasks, ship_tasks=ship_tasks, max_members=max_members)
    if archs_file is not None:
        names = [ln.split("#")[0].strip() for ln in archs_file.read_text().splitlines()]
        cfg.architectures = [n for n in names if n]
        unknown = sorted(set(cfg.architectures) - set(architecture_names()))
        if unknown:
            err.print(f"[red]error:[/red] unknown architectures: {', '.join(unknown)}")
            raise typer.Exit(2)
    if work_dir is not None:
        cfg.work_dir = work_dir
    if out_dir is not None:
        cfg.out_dir = out_dir
    try:
        manifest = build(cfg, fresh=fresh, console=err)
    except ValueError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    s = manifest["stats"]
    err.print(
        f"shipped {s['shipped_tasks']} tasks ({s['shipped_subgraphs']} subgraphs) from {s['shipped_source_models']} "
        f"architectures into {cfg.out_dir}; Inductor slower than eager on {100 * s['shipped_inductor_slower_fraction']:.1f}% "
        f"of them; dedup ratio {s['dedup_ratio']}"
    )


def _abbrev(items: list[str], n: int) -> str:
    return ", ".join(items[:n]) + (f" +{len(items) - n}" if len(items) > n else "")


def tasks_list(category: str | None = None, op: str | None = None, console: Console | None = None) -> int:
    """Print the built-in tasks as a Rich table, optionally filtered.

    Args:
        category: keep tasks of this category (``fusible``, ``typical``, ``sole``).
        op: keep tasks whose operator sequence has an operator containing this text (``softmax``).
        console: where to print (default: stdout).

    Returns:
        The number of tasks listed.
    """
    from passagent.tools.tasks.builtin import load_manifest

    console = console or out
    rows = load_manifest()
    if category:
        rows = [r for r in rows if r["category"] == category]
    if op:
        rows = [r for r in rows if any(op in o for o in r["op_sequence"])]
    table = Table(title=f"{len(rows)} built-in task(s)", title_justify="left", caption_justify="left",
                  caption="Inductor speedup: eager time / default-Inductor time on the build machine "
                          "(geometric mean over the task's subgraphs; below 1: Inductor is slower)")
    table.add_column("id", no_wrap=True, min_width=8)
    table.add_column("category", no_wrap=True, min_width=8)
    table.add_column("n", justify="right", min_width=1)
    table.add_column("operator sequence", ratio=3)
    table.add_column("source models", ratio=2)
    table.add_column("dtypes", no_wrap=True, min_width=12)
    table.add_column("Inductor speedup", justify="right", no_wrap=True, min_width=16)
    short = {"float32": "f32", "float16": "f16", "bfloat16": "bf16"}
    for r in rows:
        sp = r.get("inductor_speedup")
        sp_text = f"{sp:.2f}x" if isinstance(sp, (int, float)) else "-"
        table.add_row(r["id"], r["category"], str(len(r["subgraphs"])), _abbrev(r["op_sequence"], 6).replace(", ", " "),
                      _abbrev(r["source_models"], 3), ",".join(short.get(d, d) for d in r.get("dtypes", [])), sp_text)
    console.print(table)
    return len(rows)


@bench_app.command("list", hidden=True)
def _list_cmd(category: Optional[str] = typer.Option(None), op: Optional[str] = typer.Option(None)) -> None:
    """The same table as ``passagent tasks list`` (for ``python -m passagent.bench.cli list``)."""
    tasks_list(category, op)


if __name__ == "__main__":
    bench_app()
