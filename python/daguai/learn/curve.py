"""The learning curve of a training run: its evaluations read back from the TensorBoard event
files the trainer wrote (``RUN/tb``), drawn with matplotlib (``daguai train RUN --plot``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["read_curve", "plot_curve"]


def read_curve(run: str | Path) -> dict[str, list[tuple[int, float]]]:
    """Scalar series of a run's event files: tag -> [(step, value)], in step order."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    tb = Path(run) / "tb"
    if not tb.is_dir():
        raise ValueError(f"no TensorBoard logs in {str(tb)!r} (is {str(run)!r} a training run?)")
    acc = EventAccumulator(str(tb), size_guidance={"scalars": 0})
    acc.Reload()
    out: dict[str, list[tuple[int, float]]] = {}
    for tag in acc.Tags()["scalars"]:
        series = {e.step: e.value for e in acc.Scalars(tag)}  # a resumed run may rewrite steps
        out[tag] = sorted(series.items())
    return out


def plot_curve(run: str | Path, path: str | Path) -> Path:
    """Draw the evaluation curve (net wins per round against heuristic, 95% band) and the
    training loss of a run into an image file (.png, .svg or .pdf); returns its path."""
    from .config import check_plot_path

    path = check_plot_path(path)
    curve = read_curve(run)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    frames = dict(curve.get("train/frames", []))

    def x_of(step: int) -> float:
        return frames.get(step, float(step)) / 1e6

    ev: Any = curve.get("eval/heuristic_mean", [])
    if ev:
        lo = dict(curve.get("eval/heuristic_lo", []))
        hi = dict(curve.get("eval/heuristic_hi", []))
        xs = [x_of(s) for s, _ in ev]
        ax1.plot(xs, [v for _, v in ev], marker="o", label="learned vs heuristic")
        ax1.fill_between(xs, [lo.get(s, v) for s, v in ev], [hi.get(s, v) for s, v in ev], alpha=0.25,
                         label="95% interval")
    ax1.axhline(0.0, color="grey", linewidth=0.8)
    ax1.set_ylabel("net wins per round")
    # the run's folder as typed (a run named "run" read "daguai training run run")
    ax1.set_title(f"daguai train {run}: duplicate evaluation against heuristic", fontsize="medium")
    ax1.legend(loc="lower right")
    loss = curve.get("train/loss", [])
    ax2.plot([x_of(s) for s, _ in loss], [v for _, v in loss], linewidth=0.8)
    ax2.set_ylabel("loss (MSE)")
    ax2.set_xlabel("frames (millions)" if frames else "step")
    fig.tight_layout()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path)
    except OSError as exc:
        raise ValueError(f"--plot {str(path)!r}: cannot write it ({exc.strerror or exc})") from None
    finally:
        plt.close(fig)
    return path
