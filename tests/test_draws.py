"""The inputs a candidate is checked and timed on (shared/docs/SCORING.md, "The inputs a candidate is
checked on"): narrow, spread and wide draws, integer inputs over their valid range, timing pools
that never repeat a value, held-out shapes that grow every size they can, and what crosses between
processes as data."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from helpers import make_sample

from passagent.tools.evaluation.draws import (BOOL_P, DrawSpec, TimingPool, correctness_draws, draw_inputs, grown_subgraph,
                                              index_ranges, secret_growth, size_candidates, widened_int_ranges)
from passagent.tools.evaluation.wire import BadValues, dense_non_overlapping, read_values, write_values
from passagent.tools.tasks.inputs import SPREAD_FACTOR
from passagent.tools.tasks.loader import load_task
from passagent.tools.evaluation.steps import build_module


def _sg(tmp_path: Path, name: str, body: str, args: dict) -> object:
    return load_task(make_sample(tmp_path, name, body, args)).subgraphs[0]


def test_every_check_has_narrow_spread_and_wide_draws(tmp_path: Path) -> None:
    specs = correctness_draws(seed=7, draws=3)
    assert [s.label for s in specs] == ["narrow", "narrow", "narrow", "spread", "wide"]
    assert [s.seed for s in specs] == [7, 8, 9, 10, 11]
    assert specs[0].spread == SPREAD_FACTOR == 0.2 and specs[3].spread == 1.0 and specs[4].spread == 3.0
    assert specs[3].bool_p == specs[4].bool_p == BOOL_P
    sg = _sg(tmp_path, "act", "y = x * 2.0\nreturn (y,)", {"x": ([4096], "float32")})
    spread = {s.label: float(draw_inputs(sg, s, "cpu", 1.0)[0].std()) for s in specs[2:]}
    # The recorded std is 1: GraphNet's draw has a fifth of it, the others all of it and three times it.
    assert spread["narrow"] == pytest.approx(0.2, rel=0.1)
    assert spread["spread"] == pytest.approx(1.0, rel=0.1) and spread["wide"] == pytest.approx(3.0, rel=0.1)


def test_a_draw_is_the_same_in_every_process_that_makes_it(tmp_path: Path) -> None:
    sg = _sg(tmp_path, "act", "y = x * 2.0\nreturn (y,)", {"x": ([64, 8], "float32")})
    spec = DrawSpec.from_json(DrawSpec(seed=3, spread=1.0, label="spread").to_json())
    assert torch.equal(draw_inputs(sg, spec, "cpu", 1.0)[0], draw_inputs(sg, spec, "cpu", 1.0)[0])


def test_index_inputs_cover_the_table_and_one_valued_masks_both_values(tmp_path: Path) -> None:
    # An embedding whose recorded ids are 3..5 of a 100-row table, and a mask recorded as all ones.
    sg = _sg(tmp_path, "emb", "e = torch.nn.functional.embedding(ids, w)\ny = e * mask.unsqueeze(-1)\nreturn (y,)",
             {"ids": ([8, 16], "int64", (3, 5)), "w": ([100, 4], "float32"), "mask": ([8, 16], "int64", (1, 1))})
    indices = index_ranges(sg, build_module(sg, torch.device("cpu"), "t"))
    assert indices == {0: (0, 99)}
    ranges = widened_int_ranges(sg, indices)
    assert ranges == ((0, 0, 99), (2, 0, 1))
    wide = draw_inputs(sg, correctness_draws(0, 3, ranges)[-1], "cpu", 1.0)
    assert int(wide[0].min()) < 3 and int(wide[0].max()) > 5 and int(wide[0].max()) <= 99
    assert set(wide[2].unique().tolist()) == {0, 1}
    narrow = draw_inputs(sg, correctness_draws(0, 3, ranges)[0], "cpu", 1.0)
    assert 3 <= int(narrow[0].min()) and int(narrow[0].max()) <= 5 and set(narrow[2].unique().tolist()) == {1}


def test_timed_calls_never_see_the_same_values(tmp_path: Path) -> None:
    sg = _sg(tmp_path, "two", "y = x + b\nreturn (y,)", {"x": ([2, 3], "float32"), "b": ([3], "float32")})
    pool = TimingPool(sg, DrawSpec(seed=11), torch.device("cpu"), 1.0)
    seen = set()
    for r in range(200):
        x, b = pool.inputs(r * 7919 + 13)
        assert x.shape == (2, 3) and b.shape == (3,) and x.is_contiguous()
        seen.add((tuple(x.flatten().tolist()), tuple(b.tolist())))
    assert len(seen) == 200
    # Refilling buffers gives the values a fresh draw of the same call gives.
    buffers = pool.inputs(0)
    pool.fill(buffers, 12345)
    assert all(torch.equal(a, b) for a, b in zip(buffers, pool.inputs(12345)))
    # The same seed makes the same pool in another process.
    again = TimingPool(sg, DrawSpec(seed=11), torch.device("cpu"), 1.0)
    assert torch.equal(again.inputs(99)[0], pool.inputs(99)[0])


def test_held_out_shapes_grow_sizes_of_one_and_those_of_non_float_inputs(tmp_path: Path) -> None:
    sg = _sg(tmp_path, "mask", "y = x.masked_fill(m.unsqueeze(1), 0.0)\nreturn (y,)",
             {"x": ([1, 4, 16], "float32"), "m": ([1, 16], "bool")})
    assert set(size_candidates(sg)) == {1, 4, 16}
    grown = grown_subgraph(sg, {1: 2, 16: 19})
    assert [a.shape for a in grown.args] == [(2, 4, 19), (2, 19)]


def test_held_out_amounts_are_secret_and_vary(tmp_path: Path) -> None:
    sizes = [1, 16, 64, 768]
    draws = [secret_growth(sizes, seed) for seed in range(20)]
    for growth in draws:
        assert all(size < new <= size + max(2, size // 4) for size, new in growth.items())
    assert len({tuple(g.values()) for g in draws}) > 10, "the amounts depend on the secret seed"
    assert secret_growth(sizes, 5) == secret_growth(sizes, 5)


def test_held_out_shapes_draw_literal_data_of_another_size_from_its_values(tmp_path: Path) -> None:
    from passagent.tools.tasks.loader import load_subgraph

    folder = make_sample(tmp_path, "pos", "y = x + pos\nreturn (y,)", {"x": ([4, 8], "float32"), "pos": ([8], "int64")})
    meta = folder / "weight_meta.py"
    meta.write_text(meta.read_text().replace("    data = None\n    min", "    data = None\n    min").replace(
        'name = "pos"\n    shape = [8]\n    dtype = "torch.int64"\n    device = "cpu"\n    mean = 0.0\n    std = 1.0\n    data = None',
        'name = "pos"\n    shape = [8]\n    dtype = "torch.int64"\n    device = "cpu"\n    mean = 3.5\n    std = 2.3\n    data = [0, 1, 2, 3, 4, 5, 6, 7]'))
    sg = load_subgraph(folder)
    pos = grown_subgraph(sg, {8: 10}).args[1].meta
    assert pos.shape == (10,) and pos.data is None and (pos.min_val, pos.max_val) == (0.0, 7.0)
    values = draw_inputs(grown_subgraph(sg, {8: 10}), DrawSpec(seed=1, label="heldout"), "cpu", 1.0)[1]
    assert values.shape == (10,) and 0 <= int(values.min()) and int(values.max()) <= 7


# -- what crosses between processes ------------------------------------------------------------------


def test_values_cross_as_plain_dense_tensors_with_the_producers_claims(tmp_path: Path) -> None:
    base = torch.arange(6.0).reshape(2, 3)
    expanded = torch.ones(1, 3).expand(4, 3)
    sub = torch.nn.Parameter(torch.ones(2), requires_grad=False)
    path = tmp_path / "v.bin"
    write_values(path, [base.t(), expanded, sub, 7, torch.tensor(2.5, dtype=torch.bfloat16)], {"calls": 1})
    values, entries, claims = read_values(path, max_bytes=10_000)
    assert claims == {"calls": 1}
    assert all(type(v) is torch.Tensor and v.is_contiguous() for v in values if isinstance(v, torch.Tensor))
    assert torch.equal(values[0], base.t()) and torch.equal(values[1], expanded) and values[3] == 7
    assert values[4].dtype == torch.bfloat16 and float(values[4]) == 2.5
    assert entries[0]["dense"] and not entries[1]["dense"] and entries[1]["strides"] == [0, 1]
    assert entries[2]["exact_type"] is False and entries[0]["exact_type"] is True
    assert dense_non_overlapping(base.t()) and not dense_non_overlapping(expanded)
    assert not dense_non_overlapping(torch.ones(4, 4)[:, ::2])


def test_a_file_that_lies_about_its_sizes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "v.bin"
    write_values(path, [torch.ones(4)])
    raw = path.read_bytes()
    path.write_bytes(raw.replace(b'"shape": [4]', b'"shape": [9]'))
    with pytest.raises(BadValues, match="claims"):
        read_values(path, max_bytes=10_000)
    with pytest.raises(BadValues, match="more than"):
        read_values(path, max_bytes=10)
    link = tmp_path / "link.bin"
    link.symlink_to(path)
    with pytest.raises(BadValues):
        read_values(link, max_bytes=10_000)
