"""``daguai train``: the learned player's self-play training (:func:`daguai.learn.trainer.train`),
its curve and its export."""

from __future__ import annotations

import argparse
import sys

from ..learn.config import TrainConfig
from .options import Command, Fail, RuleAction, int_text, parse_rules, positive, seed_number


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


def _pool(text: str) -> tuple[str, ...]:
    """A continuation pool: comma-separated policy names or .dgn paths."""
    pool = tuple(p.strip() for p in text.split(","))
    if not all(pool):
        raise argparse.ArgumentTypeError(
            f"a comma-separated list of policy names or .dgn paths, got {text!r}")
    return pool


def _init_widths(path: str) -> tuple[int, ...]:
    """The hidden widths of the --init model (checked by the engine's reader, no PyTorch)."""
    from ..dgn import parse_dgn, read_model_file

    try:
        layers, _, _ = parse_dgn(read_model_file(path), meta=False)
    except (OSError, ValueError) as exc:
        raise Fail(f"--init {path!r}: {' '.join(str(exc).split())}") from None
    return tuple(int(w.shape[0]) for w, _ in layers[:-1])


def _add_train(p: argparse.ArgumentParser) -> None:
    C = TrainConfig  # every setting's default is the trainer's (the parser needs no torch)

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
    p.add_argument("--actors", type=positive, default=C.actors, metavar="N",
                   help=f"actor processes (default {C.actors})")
    p.add_argument("--rule", "--rules", dest="rules", action=RuleAction, default=[], metavar="KEY=VALUE",
                   help="train for a table or rule variant, e.g. --rule table=4p2d (repeatable; a "
                        "new run's setting: a resumed run keeps its checkpoint's rules)")
    p.add_argument("--init", metavar="MODEL", default=C.init,
                   help="start a new run from this .dgn model's weights (its widths are the run's), "
                        "e.g. a model of another table; default: random weights")
    p.add_argument("--continuation", type=_pool, default=C.continuation, metavar="POOL",
                   help="the policies that play the branch pairs' rounds out, comma-separated, one "
                        "drawn per game and seat: built-in names (not searches) or .dgn models, e.g. "
                        "a frozen earlier generation: --continuation gen1.dgn,heuristic (default "
                        f"{','.join(C.continuation)}; a new run's setting)")
    p.add_argument("--r11", action="store_true", default=C.r11,
                   help="the network also makes and learns the R11 decisions (tribute, return, offer, "
                        "take), each one branched; its models say so (a new run's setting)")
    p.add_argument("--ray", metavar="ADDRESS",
                   help="run the actors on Ray at ADDRESS ('local', 'auto', host:port)")
    p.add_argument("--seed", type=seed_number, default=C.seed, help=f"seed of the run (default {C.seed})")
    p.add_argument("--games-per-task", type=positive, default=C.games_per_task, metavar="N",
                   help=f"rounds per actor task (default {C.games_per_task})")
    p.add_argument("--epsilon", type=_fraction, default=C.epsilon,
                   help=f"exploration rate (default {C.epsilon:g})")
    p.add_argument("--lr", type=float, default=C.lr, help=f"Adam learning rate (default {C.lr:g})")
    p.add_argument("--batch", type=positive, default=C.batch, help=f"minibatch size (default {C.batch})")
    p.add_argument("--widths", type=_widths, default=C.widths, metavar="W1,W2",
                   help=f"hidden layer widths (default {','.join(map(str, C.widths))})")
    p.add_argument("--warm-frames", type=int_text, default=C.warm_frames, metavar="N",
                   help=f"frames of the heuristic warm start (default {C.warm_frames:,}; 0: none)")
    p.add_argument("--self-play", type=_fraction, default=C.self_play, metavar="F",
                   help=f"after the warm start, the share of self-play tasks (default {C.self_play:g}; "
                        "the rest: the network's team against heuristic)")
    p.add_argument("--branch", type=_fraction, default=C.branch, metavar="F",
                   help=f"share of recorded decisions branched into a pair (default {C.branch:g})")
    p.add_argument("--margin", type=float, default=None, metavar="Q",
                   help=f"switching margin of the policy (default {C.margin:g}; with --export: the "
                        "exported model's, default the run's)")
    p.add_argument("--pair-weight", type=float, default=C.pair_weight, metavar="W",
                   help=f"weight of the pair-difference loss (default {C.pair_weight:g})")
    p.add_argument("--reward", choices=("wl", "score"), default=C.reward,
                   help=f"target: round win/draw/loss (wl) or score change / 3 (default {C.reward})")
    p.add_argument("--eval-every", type=int_text, default=C.eval_every, metavar="STEPS",
                   help=f"steps between evaluations against heuristic (default {C.eval_every}; 0: never)")
    p.add_argument("--eval-deals", type=positive, default=C.eval_deals, metavar="N",
                   help=f"deals per evaluation (duplicate: 2N rounds; default {C.eval_deals})")
    p.add_argument("--threads", type=positive, default=C.threads,
                   help=f"the learner's torch threads (default {C.threads})")
    p.add_argument("--checkpoint-minutes", type=float, default=5.0, metavar="M",
                   help="minutes between checkpoints (default 5)")
    p.add_argument("--snapshots", type=int_text, default=None, metavar="K",
                   help="keep each evaluated model as RUN/snapshots/stepN.dgn, the last K of them "
                        "(default: a resumed run's own setting, else 8; 0: none)")
    p.add_argument("--average-from", type=int_text, default=None, metavar="STEP",
                   help="with --export: write the weight average of the snapshots of STEP and later "
                        "and the run's current network")
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_true", default=None,
                     help="show progress on stderr (the default): a live table on a terminal, "
                          "else a line every 30 s and at each evaluation")
    bar.add_argument("--no-progress", dest="progress", action="store_false", help="no progress output")


def _run_train(args: argparse.Namespace) -> int:
    import shlex
    from pathlib import Path

    # every check that needs no PyTorch first (importing it takes 2-12 s): paths, numbers
    from ..learn.config import (
        CHECKPOINT,
        SNAPSHOTS,
        TrainConfig,
        check_continuation,
        check_export_path,
        check_keep,
        check_minutes,
        check_plot_path,
        check_run_dir,
        check_step,
        snapshots,
    )

    if not args.run.strip():
        raise Fail(f"RUN must name a folder, got {args.run!r}")
    if args.plot:
        check_plot_path(args.plot)
        from ..learn.curve import plot_curve

        print(f"wrote {plot_curve(args.run, args.plot)}")
        return 0
    if args.export:
        check_export_path(args.export)
        if not (Path(args.run) / CHECKPOINT).exists():
            raise Fail(f"no checkpoint in {args.run!r}")
        if args.margin is not None and not 0 <= args.margin <= 10:
            raise Fail(f"--margin must be a number in [0, 10], got {args.margin}")
        if args.average_from is not None:
            check_step("--average-from", args.average_from)
            if not any(k >= args.average_from for k, _ in snapshots(args.run)):
                raise Fail(f"--average-from {args.average_from}: no snapshot of that step or later in "
                           f"{str(Path(args.run) / SNAPSHOTS)!r}")
    else:
        if args.average_from is not None:
            raise Fail("--average-from goes with --export")
        check_minutes("--minutes", args.minutes)
        check_minutes("--checkpoint-minutes", args.checkpoint_minutes)
        if args.snapshots is not None:
            check_keep("--snapshots", args.snapshots)
        widths = args.widths
        if args.init:
            widths = _init_widths(args.init)
        cfg = TrainConfig(seed=args.seed, actors=args.actors, games_per_task=args.games_per_task,
                          epsilon=args.epsilon, lr=args.lr, batch=args.batch, widths=widths,
                          warm_frames=args.warm_frames, self_play=args.self_play, reward=args.reward,
                          branch=args.branch, pair_weight=args.pair_weight,
                          margin=TrainConfig.margin if args.margin is None else args.margin,
                          eval_every=args.eval_every, eval_deals=args.eval_deals,
                          threads=args.threads, rules=parse_rules(args.rules),
                          init=args.init, continuation=args.continuation, r11=args.r11).check()
        check_continuation(cfg)
        check_run_dir(args.run)
        if args.ray and args.ray != "local":
            from ..run.cluster import _probe

            _probe(args.ray, 10.0)  # an address nothing answers at: one line now, not a hang
    try:
        from ..learn.trainer import export, train
    except ImportError as exc:
        if exc.name == "torch":
            raise Fail("daguai train needs PyTorch: pip install 'daguai[train]'") from None
        raise
    command = "daguai " + " ".join(shlex.quote(a) for a in args._argv)
    if args.export:
        path = export(args.run, args.export, command=command, margin=args.margin,
                      average_from=args.average_from)
        print(f"wrote {path}")
        return 0
    resume = not args.fresh and (Path(args.run) / CHECKPOINT).exists()
    # a terminal gets the live table; a pipe or a log file a plain line every 30 s and at
    # every evaluation (a live display writes nothing there until the run ends)
    progress: bool | str = "live" if sys.stderr.isatty() else "lines"
    if args.progress is not None:
        progress = ("live" if sys.stderr.isatty() else "lines") if args.progress else False
    s = train(args.run, None if resume else cfg, minutes=args.minutes, max_frames=args.max_frames,
              resume=resume, ray=args.ray, progress=progress,
              checkpoint_minutes=args.checkpoint_minutes, command=command,
              keep_snapshots=args.snapshots)
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
