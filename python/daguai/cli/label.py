"""``daguai label``: labels from the search (:func:`daguai.learn.labels.label`): self-play rounds
whose decisions are labelled with the teacher search's choice and per-group scores, in resumable
shards; with ``--fit``, the policy and value heads trained on a label folder
(:func:`daguai.learn.heads.fit`)."""

from __future__ import annotations

import argparse
import sys

from .options import Command, Fail, positive, print_json, seed_number


def _seats(text: str) -> tuple[int, ...]:
    if text == "all":
        return ()
    try:
        return tuple(sorted({int(s) for s in text.split(",")}))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"seats are 'all' or comma-separated seat numbers, got {text!r}") from None


def _add_label(p: argparse.ArgumentParser) -> None:
    p.add_argument("folder", metavar="FOLDER", help="the label folder (shards and manifest.json); "
                                                   "an existing one is resumed")
    p.add_argument("--games", type=positive, default=1000, metavar="N", help="rounds to label (default 1000)")
    p.add_argument("--seed", type=seed_number, default=0, metavar="S",
                   help="seed: round i depends only on (S, i) (default 0)")
    p.add_argument("--table", choices=("6p3d", "4p2d"), default="6p3d", help="the table (default 6p3d)")
    p.add_argument("--teacher", default="expert", metavar="POLICY",
                   help="the search whose decisions are the labels (default expert)")
    p.add_argument("--others", default="", metavar="POLICY",
                   help="the policy of the seats not labelled (default: the teacher)")
    p.add_argument("--seats", type=_seats, default=(), metavar="LIST",
                   help="the labelled seats, e.g. 0,3 (default all)")
    p.add_argument("--start", choices=("random", "fresh"), default="random",
                   help="where each round begins (default random: random levels and tribute)")
    p.add_argument("--shard-games", type=positive, default=50, metavar="N",
                   help="rounds per shard file (default 50)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=positive, default=1, metavar="W",
                       help="local processes, one shard each (default 1; the labels do not depend on it)")
    where.add_argument("--ray", metavar="ADDRESS", default=None,
                       help="label on a Ray cluster ('auto', host:port, or 'local' for one on this "
                            "machine): one shard per task, as many at a time as it has CPUs; the "
                            "shards are written here and are those of local processes")
    p.add_argument("--minutes", type=float, default=None, metavar="M",
                   help="begin no new shard after M minutes (resume later with the same command)")
    p.add_argument("--fit", metavar="RUN", default=None,
                   help="instead of labelling: train the policy and value heads on FOLDER's shards "
                        "into the run folder RUN (its curve in RUN/curve.json)")
    p.add_argument("--epochs", type=positive, default=10, metavar="E",
                   help="--fit: epochs (default 10; the weights of the best held-out epoch are kept)")
    p.add_argument("--target", choices=("choice", "scores"), default="choice",
                   help="--fit: the policy's target, the teacher's choice or a softmax of its group "
                        "scores (default choice)")
    p.add_argument("--value-target", choices=("search", "result"), default="search",
                   help="--fit: the value's target, the search's estimate of the chosen play or the "
                        "round's result (default search)")
    p.add_argument("--json", action="store_true", help="print the manifest (or the fit's figures) as JSON")


def _run_label(args: argparse.Namespace) -> int:
    from ..learn.labels import LabelConfig, label

    if args.fit is not None:
        from ..learn.heads import FitConfig, fit

        cfg = FitConfig(epochs=args.epochs, seed=args.seed, target=args.target,
                        value_target=args.value_target)
        result = fit([args.folder], args.fit, cfg)
        if args.json:
            print_json(result)
        else:
            last = result["curve"][result["best_epoch"] - 1]
            print(f"{args.fit}: {result['train']} labels train, {result['held_out']} held out; best epoch "
                  f"{last['epoch']}: held-out policy loss {last['val_policy_loss']:.4f}, top-1 agreement "
                  f"{last['val_top1']:.3f}, value MSE {last['val_value_mse']:.4f}")
        return 0
    if args.minutes is not None and not args.minutes > 0:
        raise Fail(f"--minutes must be positive, got {args.minutes}")
    if args.ray is not None and args.ray != "local":
        from ..run.cluster import _probe

        _probe(args.ray, 10.0)  # an address nothing answers at: one line now, not a hang
    cfg = LabelConfig(games=args.games, seed=args.seed, table=args.table, teacher=args.teacher,
                      others=args.others, seats=args.seats, shard_games=args.shard_games, start=args.start)
    doc = label(args.folder, cfg, workers=args.workers, ray=args.ray,
                stop_after=None if args.minutes is None else 60.0 * args.minutes,
                log=None if args.json else (lambda line: print(line, file=sys.stderr, flush=True)))
    if args.json:
        print_json(doc)
    else:
        s = doc["summary"]
        print(f"{args.folder}: {s['shards']} of {cfg.shards()} shards, {s['games']} rounds, "
              f"{s['labels']} labels of {s['decisions']} decisions, {s['cpu_s']:.0f} CPU s")
    return 0


COMMAND = Command("label", "label self-play decisions with a search's choice and scores",
        "Play rounds (R17: round i depends only on --seed and i) in which the teacher search "
        "(default expert) decides for the labelled seats, and keep each play-phase decision with "
        "the position's features, the legal abstract ids, the teacher's choice, its race's "
        "per-group scores and the round's result for the seat's team, in shard files of "
        "--shard-games rounds with a manifest.json (seeds, commit, wall and CPU time). An "
        "existing FOLDER is resumed: the shards present are kept, no round is labelled twice; "
        "other settings are refused. With --fit RUN, train the policy and value heads on the "
        "shards instead (docs/learning.md \"Labels from the search\").",
        _add_label, _run_label)
