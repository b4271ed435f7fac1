"""Train a small learned player, export it, and evaluate it against the heuristic.

    python examples/train_learned.py --run runs/example --minutes 2

The trainer (``daguai.learn.train``) runs Deep Monte-Carlo self-play with the C++ engine as
its actors; the exported ``.dgn`` file is a policy the engine plays natively, by its path,
everywhere a policy name goes (docs/learning.md "The learned player").
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import daguai
from daguai.learn import TrainConfig, export, train


def main(argv: Sequence[str] | None = None) -> daguai.EvalResult:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--run", default="runs/example", help="run directory (resumed if it exists)")
    p.add_argument("--minutes", type=float, default=2.0, help="wall time of this call")
    p.add_argument("--max-frames", type=int, default=None, help="stop at this many frames")
    p.add_argument("--deals", type=int, default=200, help="deals of the final evaluation")
    args = p.parse_args(argv)
    # a small network and a short warm start: the shipped model used (256, 128) and 3M frames
    config = TrainConfig(seed=0, widths=(64, 32), warm_frames=100_000, eval_every=50,
                         eval_deals=100)
    summary = train(args.run, config, minutes=args.minutes, max_frames=args.max_frames)
    print(f"trained to step {summary.step}: {summary.frames:,} frames, "
          f"{summary.frames_per_second:,.0f} frames/s")
    model = export(args.run, f"{args.run}/model.dgn", command="examples/train_learned.py")
    result = daguai.evaluate(str(model), "heuristic", args.deals, seed=1)
    lo, hi = result.net_win_ci
    print(f"{model} vs heuristic over {args.deals} deals: {result.net_win_rate:+.3f} "
          f"[{lo:+.3f}, {hi:+.3f}] wins - losses per round")
    return result


if __name__ == "__main__":
    main()
