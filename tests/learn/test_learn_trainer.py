"""The trainer (python/daguai/learn/trainer.py): a short smoke run of Deep
Monte-Carlo self-play whose loss falls, whose checkpoint resumes to exactly the weights of an
uninterrupted run (the deterministic pipeline, R17), and whose exported model plays; the
learning curve; the CLI's checks (exit 2 before any work)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import daguai
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tensorboard")
from daguai import _core  # noqa: E402
from daguai.learn import Network, QNet, TrainConfig, export, train  # noqa: E402
from daguai.learn.curve import plot_curve, read_curve  # noqa: E402
from daguai.learn.trainer import splitmix64  # noqa: E402

# small enough for seconds: few rounds per task, a small network
SMALL = TrainConfig(seed=3, games_per_task=2, widths=(32, 16), warm_frames=2000, eval_every=5,
                    eval_deals=6, batch=256, lr=1e-3)


def _weights(run) -> dict:
    return torch.load(run / "checkpoint.pt", weights_only=True)["net"]


# slow: 33 s quiet; test_the_example_trains_and_evaluates keeps training in the default run
@pytest.mark.slow
def test_smoke_run_learns_resumes_and_exports(tmp_path):
    a = tmp_path / "a"
    s = train(a, SMALL, minutes=5, max_frames=6_000, resume=False)
    assert s.frames >= 6_000 and s.step > 10 and s.rounds > 0
    # the loss falls: on held-out frames (other games), the trained network against the one it
    # started from (the trainer's initialisation, seeded the same way)
    loss = [v for _, v in read_curve(a)["train/loss"]]
    assert len(loss) == s.step
    held = _core.run._self_play(daguai.Rules()._core, 99, 0, 12, ["heuristic"] * 6, [True] * 6, 0.0, 1.0)
    state, action = torch.from_numpy(held["state"]), torch.from_numpy(held["action"])
    target = torch.from_numpy(held["target"])

    def held_out_loss(net: QNet) -> tuple[float, float]:  # (value error, pair-difference error)
        with torch.no_grad():
            q = net(state, action)
        d = (q[1::2] - q[0::2]) - (target[1::2] - target[0::2])
        return float(torch.mean((q - target) ** 2)), float(torch.mean(d ** 2))

    torch.manual_seed(int(splitmix64(SMALL.seed) >> 1))
    before = held_out_loss(QNet(SMALL.widths))
    after = held_out_loss(QNet.from_dgn(a / "latest.dgn"))
    # the value error falls in seconds; the pair difference (the advantage) needs millions of
    # frames: docs/learning.md has the real run's curve
    assert after[0] < 0.97 * before[0], (before, after)
    # evaluations against heuristic, logged as TensorBoard scalars and JSON lines
    evals = [json.loads(line) for line in (a / "evals.jsonl").read_text().splitlines()]
    assert [e["step"] for e in evals] == [k for k in range(1, s.step + 1) if k in (1, 2, 4) or k % 5 == 0]
    assert all(-1 <= e["lo"] <= e["mean"] <= e["hi"] <= 1 for e in evals)
    assert len(read_curve(a)["eval/heuristic_mean"]) == len(evals)
    # resume: two calls train on exactly the frames of one, to the same weights
    b = tmp_path / "b"
    train(b, SMALL, minutes=5, max_frames=3_000, resume=False)
    t = train(b, None, minutes=5, max_frames=6_000)
    assert t.step == s.step and t.frames == s.frames
    wa, wb = _weights(a), _weights(b)
    assert all(torch.equal(wa[k], wb[k]) for k in wa)
    # a resumed run refuses another configuration
    with pytest.raises(ValueError, match="another configuration"):
        train(b, TrainConfig(seed=4), minutes=1)
    # the exported model loads in the engine, identically, and plays legal rounds
    path = export(a, tmp_path / "m.dgn", command="test")
    net = Network.from_file(str(path))
    assert net.widths == [32, 16] and json.loads(net.meta)["frames"] == s.frames
    assert (a / "latest.dgn").read_bytes()[-8:] != b""
    r = daguai.simulate(6, [str(path), "heuristic"], seed=1)
    assert r.n == 6
    png = plot_curve(a, tmp_path / "curve.png")
    assert png.stat().st_size > 1000


@pytest.mark.slow  # a whole process, server or match (seconds): CI runs it
def test_the_example_trains_and_evaluates(tmp_path):
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "train_learned", Path(__file__).resolve().parents[2] / "examples" / "train_learned.py")
    assert spec and spec.loader
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    result = example.main(["--run", str(tmp_path / "run"), "--max-frames", "1500", "--deals", "4"])
    assert result.n_deals == 4 and (tmp_path / "run" / "model.dgn").is_file()


def test_config_is_checked():
    for bad in ({"actors": 0}, {"epsilon": 2.0}, {"reward": "x"}, {"widths": (0,)},
                {"seed": -1}, {"margin": -0.1}, {"branch": True}, {"eval_deals": 0}):
        with pytest.raises(ValueError):
            TrainConfig(**bad).check()  # type: ignore[arg-type]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "daguai", "train", *args], capture_output=True,
                          text=True, timeout=120)


def test_cli_checks_before_work(tmp_path):
    for args, message in (
        ([str(tmp_path / "r"), "--plot", str(tmp_path / "x.bmp")], "no TensorBoard logs|.png"),
        ([str(tmp_path / "r"), "--export", str(tmp_path / "x.txt")], ".dgn"),
        ([str(tmp_path / "r"), "--minutes", "-1"], "minutes"),
        ([str(tmp_path / "r"), "--epsilon", "3"], "epsilon|\\[0, 1\\]"),
        ([str(tmp_path / "r"), "--widths", "a,b"], "widths"),
        ([str(tmp_path / "r"), "--snapshots", "-1"], "--snapshots"),
        ([str(tmp_path / "r"), "--average-from", "5"], "goes with --export"),
        ([str(tmp_path / "r"), "--export", str(tmp_path / "x.dgn"), "--average-from", "x"], "whole number"),
    ):
        p = _cli(*args)
        assert p.returncode == 2, (args, p.stderr)
        assert len(p.stderr.strip().splitlines()) == 1 and "error" in p.stderr
        assert re.search(message, p.stderr), p.stderr
    assert not (tmp_path / "r" / "checkpoint.pt").exists()
    assert "Deep Monte-Carlo" in " ".join(_cli("--help").stdout.split())


@pytest.mark.slow
@pytest.mark.ray
def test_ray_actors_give_the_weights_of_local_actors(tmp_path):
    """`--ray`: the same tasks on Ray actors (a local Ray instance on this machine) train to
    bit-identical weights (a task's frames depend only on the task)."""
    pytest.importorskip("ray")
    import ray

    cfg = TrainConfig(seed=1, games_per_task=2, widths=(16,), warm_frames=1000, eval_every=0)
    train(tmp_path / "local", cfg, minutes=2, max_frames=3000, resume=False)
    try:
        train(tmp_path / "ray", cfg, minutes=2, max_frames=3000, resume=False, ray="local")
    finally:
        ray.shutdown()
    a, b = _weights(tmp_path / "local"), _weights(tmp_path / "ray")
    assert all(torch.equal(a[k], b[k]) for k in a)


def _same_layers(a, b) -> bool:
    return len(a) == len(b) and all(np.array_equal(wa, wb) and np.array_equal(ba, bb)
                                    for (wa, ba), (wb, bb) in zip(a, b, strict=True))


# slow: about 10 s quiet (a short run with an evaluation at every step)
@pytest.mark.slow
def test_snapshots_are_the_evaluated_models_and_export_averages_them(tmp_path):
    """Each evaluation's model is kept as snapshots/step{N}.dgn (the last K of them), and
    `export(average_from=S)` is the weight average of the snapshots from step S on and the
    final network, checked against average_models of the same files."""
    from daguai.dgn import average_models, read_dgn
    from daguai.learn.config import snapshots

    cfg = TrainConfig(seed=5, games_per_task=2, widths=(16,), warm_frames=1000, eval_every=1,
                      eval_deals=2, batch=256, lr=1e-3)
    run = tmp_path / "run"
    (run / "snapshots").mkdir(parents=True)
    (run / "snapshots" / "notes.txt").write_text("not a snapshot")  # left alone
    (run / "snapshots" / "step999.dgn").write_text("an earlier run's")  # a new run removes it
    s = train(run, cfg, minutes=5, max_frames=2_500, resume=False, keep_snapshots=3)
    kept = snapshots(run)
    evaluated = [json.loads(line)["step"] for line in (run / "evals.jsonl").read_text().splitlines()]
    assert s.step >= 4 and [k for k, _ in kept] == evaluated[-3:]
    assert (run / "snapshots" / "notes.txt").exists()
    # the last snapshot is the last evaluated model, byte for byte
    assert kept[-1][1].read_bytes() == (run / "eval.dgn").read_bytes()
    # averaged from the second kept step: those snapshots, and the final network once
    first = kept[1][0]
    out = export(run, tmp_path / "avg.dgn", command="test", average_from=first)
    final = export(run, tmp_path / "final.dgn", command="test")
    ref = average_models([p for _, p in kept[1:]] + ([final] if kept[-1][0] != s.step else []),
                         tmp_path / "ref.dgn")
    (got, meta, _), (want, _, _) = read_dgn(out), read_dgn(ref)
    assert _same_layers(got, want)
    assert meta["average_from"] == first and meta["step"] == s.step
    assert [m["file"] for m in meta["averaged"]][:2] == [p.name for _, p in kept[1:]]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".export-")]  # no temporary left
    # averaging the last snapshot only, when it is the final step, is the final network
    if kept[-1][0] == s.step:
        only = export(run, tmp_path / "only.dgn", average_from=s.step)
        assert _same_layers(read_dgn(only)[0], read_dgn(final)[0])
    # refused: no snapshot that late; a bad number; nothing written
    with pytest.raises(ValueError, match="no snapshot of step"):
        export(run, tmp_path / "late.dgn", average_from=s.step + 1)
    with pytest.raises(ValueError, match="average_from"):
        export(run, tmp_path / "late.dgn", average_from=-1)
    with pytest.raises(ValueError, match="keep_snapshots"):
        train(run, None, minutes=1, keep_snapshots=-2)
    late = _cli(str(run), "--export", str(tmp_path / "late.dgn"), "--average-from", str(s.step + 1))
    assert late.returncode == 2 and len(late.stderr.strip().splitlines()) == 1, late.stderr
    assert "no snapshot of that step or later" in late.stderr
    assert not (tmp_path / "late.dgn").exists()
    # the command line writes the same average as the call
    cli = _cli(str(run), "--export", str(tmp_path / "cli.dgn"), "--average-from", str(first))
    assert cli.returncode == 0, cli.stderr
    assert _same_layers(read_dgn(tmp_path / "cli.dgn")[0], got)
    # a resumed call without K keeps the run's own (3, written by the first call), not 8
    assert (run / "snapshots.keep").read_text() == "3\n"
    s2 = train(run, None, minutes=5, max_frames=s.frames + 1_500)
    again = snapshots(run)
    assert len(again) == 3 and again[-1][0] > kept[-1][0], (again, kept, s2.step)
    (run / "snapshots.keep").write_text("many")
    with pytest.raises(ValueError, match="snapshots.keep"):
        train(run, None, minutes=5, max_frames=s2.frames + 500)
    # K = 0 keeps none: a resumed call adds no snapshot
    train(run, None, minutes=5, max_frames=s2.frames + 500, keep_snapshots=0)
    assert snapshots(run) == again and (run / "snapshots.keep").read_text() == "0\n"
