"""``daguai train``: the learned player's self-play training (:func:`daguai.learn.trainer.train`),
its curve and its export."""

from __future__ import annotations

import argparse
import sys

from .options import Command, Fail, int_text, positive, seed_number


def _widths(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(w) for w in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"widths are comma-separated whole numbers, got {text!r}") from None


def _fraction(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"must be in [0, 1], got {text}")
    return v


def _add_train(p: argparse.ArgumentParser) -> None:
    from ..learn.dgn import FORMAT  # noqa: F401  (numpy only: the parser needs no torch)

    p.add_argument("run", metavar="RUN", help="the run directory (checkpoint, logs, latest.dgn)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--plot", metavar="IMAGE",
                      help="draw the run's learning curve (.png/.svg/.pdf) and stop")
    what.add_argument("--export", metavar="MODEL", help="write the run's network as a .dgn file and stop")
    p.add_argument("--minutes", type=float, default=10.0, metavar="M",
                   help="wall time of this call (default 10); the checkpoint is written at the end")
    p.add_argument("--max-frames", type=positive, default=None, metavar="N",
                   help="stop once the run has N frames")
    p.add_argument("--fresh", action="store_true",
                   help="start over even if RUN has a checkpoint (default: resume from it)")
    p.add_argument("--actors", type=positive, default=1, metavar="N", help="actor processes (default 1)")
    p.add_argument("--ray", metavar="ADDRESS",
                   help="run the actors on Ray at ADDRESS ('local', 'auto', host:port)")
    p.add_argument("--seed", type=seed_number, default=0, help="seed of the run (default 0)")
    p.add_argument("--games-per-task", type=positive, default=32, metavar="N",
                   help="rounds per actor task (default 32)")
    p.add_argument("--epsilon", type=_fraction, default=0.05, help="exploration rate (default 0.05)")
    p.add_argument("--lr", type=float, default=3e-4, help="Adam learning rate (default 3e-4)")
    p.add_argument("--batch", type=positive, default=1024, help="minibatch size (default 1024)")
    p.add_argument("--widths", type=_widths, default=(256, 128), metavar="W1,W2",
                   help="hidden layer widths (default 256,128)")
    p.add_argument("--warm-frames", type=int_text, default=2_000_000, metavar="N",
                   help="frames of the heuristic warm start (default 2,000,000; 0: none)")
    p.add_argument("--self-play", type=_fraction, default=0.5, metavar="F",
                   help="after the warm start, the share of self-play tasks (default 0.5; the "
                        "rest: the network's team against heuristic)")
    p.add_argument("--branch", type=_fraction, default=1.0, metavar="F",
                   help="share of recorded decisions branched into a pair (default 1)")
    p.add_argument("--margin", type=float, default=None, metavar="Q",
                   help="switching margin of the policy (default 0.05; with --export: the "
                        "exported model's, default the run's)")
    p.add_argument("--pair-weight", type=float, default=1.0, metavar="W",
                   help="weight of the pair-difference loss (default 1)")
    p.add_argument("--reward", choices=("wl", "score"), default="wl",
                   help="target: round win/draw/loss (wl, default) or score change / 3")
    p.add_argument("--eval-every", type=int_text, default=100, metavar="STEPS",
                   help="steps between evaluations against heuristic (default 100; 0: never)")
    p.add_argument("--eval-deals", type=positive, default=300, metavar="N",
                   help="deals per evaluation (duplicate: 2N rounds; default 300)")
    p.add_argument("--threads", type=positive, default=1, help="the learner's torch threads (default 1)")
    p.add_argument("--checkpoint-minutes", type=float, default=5.0, metavar="M",
                   help="minutes between checkpoints (default 5)")
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_true", default=None,
                     help="show the live display on stderr (default: when stderr is a terminal)")
    bar.add_argument("--no-progress", dest="progress", action="store_false")


def _run_train(args: argparse.Namespace) -> int:
    import shlex

    if args.plot:
        from ..learn.curve import plot_curve

        print(f"wrote {plot_curve(args.run, args.plot)}")
        return 0
    try:
        from ..learn.trainer import TrainConfig, export, train
    except ImportError as exc:
        if exc.name == "torch":
            raise Fail("daguai train needs PyTorch: pip install 'daguai[train]'") from None
        raise
    command = "daguai " + " ".join(shlex.quote(a) for a in args._argv)
    if args.export:
        if not args.export.endswith(".dgn"):
            raise Fail(f"--export: a model file ends in .dgn, got {args.export!r}")
        print(f"wrote {export(args.run, args.export, command=command, margin=args.margin)}")
        return 0
    if not 0 < args.minutes <= 1e6:
        raise Fail(f"--minutes must be a positive number, got {args.minutes}")
    cfg = TrainConfig(seed=args.seed, actors=args.actors, games_per_task=args.games_per_task,
                      epsilon=args.epsilon, lr=args.lr, batch=args.batch, widths=args.widths,
                      warm_frames=args.warm_frames, self_play=args.self_play, reward=args.reward,
                      branch=args.branch, pair_weight=args.pair_weight,
                      margin=TrainConfig.margin if args.margin is None else args.margin,
                      eval_every=args.eval_every, eval_deals=args.eval_deals,
                      threads=args.threads).check()
    from pathlib import Path

    resume = not args.fresh and (Path(args.run) / "checkpoint.pt").exists()
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    s = train(args.run, None if resume else cfg, minutes=args.minutes, max_frames=args.max_frames,
              resume=resume, ray=args.ray, progress=progress,
              checkpoint_minutes=args.checkpoint_minutes, command=command)
    last = s.evals[-1] if s.evals else None
    ev = f"; last evaluation {last['mean']:+.3f} [{last['lo']:+.3f}, {last['hi']:+.3f}]" if last else ""
    print(f"{s.out}: step {s.step}, {s.frames:,} frames, {s.rounds:,} rounds, "
          f"{s.frames_per_second:,.0f} frames/s this call, {s.total_wall_seconds / 60:.1f} min in all{ev}; "
          f"wrote {s.out / 'latest.dgn'}")
    return 0


COMMAND = Command("train", "train the learned player by self-play (Deep Monte-Carlo)",
        "Deep Monte-Carlo self-play training of the learned player in RUN (docs/learning.md): "
        "actors play in C++, a PyTorch learner fits Q(s, a) to the rounds' outcomes; "
        "checkpoints, resume, TensorBoard logs and periodic evaluation against heuristic. "
        "--plot draws the curve, --export writes a .dgn model. Needs the 'train' extra.",
        _add_train, _run_train)
