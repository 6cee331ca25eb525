"""drp-figures: regenerate the published experiments' figures, tables and validation.

    drp-figures                       # every figure and the validation, paper fidelity
    drp-figures fig6 --repetitions 10 # one figure, more repetitions
    drp-figures all --transfers 50 --repetitions 2 --out /tmp/quick   # a quick look
    drp-figures fabric                # the fabric figures: incast, web-search
    drp-figures congestion            # DCQCN convergence, PFC incast, PFC victim flow
    drp-figures argument -j 2         # lossy, lossy with DCQCN, lossless on both fabrics;
                                      # one long flow against link loss, RoCEv2 beside DRP
    drp-figures cc-validation         # congestion control beside its published analysis

Runs go into a results store (default results/paper.db), so a second
invocation computes only what is missing; outputs go to --out (default
doc/figures).
"""

import argparse
import pathlib
import sys
import time

from drp.campaign import Campaign, FabricCampaign
from drp.cc_validation import CC_VALIDATION_FIGURES, make_cc_validation_figure
from drp.congestion_figures import CONGESTION_FIGURES, make_congestion_figure
from drp.fabric_figures import (
    ARGUMENT_FIGURES,
    FABRIC_FIGURES,
    FABRIC_REPETITIONS,
    fabric_grids,
    make_fabric_figure,
)
from drp.figures import FIGURES, PAPER, grids, make_figure, validate, validation_fig6
from drp.loss_figures import LOSS_FIGURES, make_loss_figure


def _parser():
    parser = argparse.ArgumentParser(
        prog="drp-figures",
        description="Regenerate the published experiments' figures (PNG, PDF), tables "
        "(CSV, Markdown) and the validation against the published findings.",
    )
    parser.add_argument(
        "figures",
        nargs="*",
        default=["all"],
        help=f"figures to make: "
        f"{', '.join([*FIGURES, *FABRIC_FIGURES, *CONGESTION_FIGURES, *ARGUMENT_FIGURES])}, "
        f"{', '.join([*LOSS_FIGURES, *CC_VALIDATION_FIGURES])}, "
        "all (the paper's, with the validation; the default), fabric (the fabric figures), "
        "congestion (the congestion-control and PFC figures), argument (lossy, lossy with "
        "DCQCN and lossless on the fabrics, and one long flow against link loss) or "
        "cc-validation (congestion control beside its published analysis)",
    )
    parser.add_argument("--store", default="results/paper.db", help="results store (SQLite)")
    parser.add_argument("--out", default="doc/figures", help="output folder")
    parser.add_argument("-r", "--repetitions", type=int, default=5, help="runs per setting")
    parser.add_argument(
        "--transfers",
        type=int,
        default=PAPER["transfers"],
        help="transfers per run (the paper's figures)",
    )
    parser.add_argument(
        "--max-validation-repetitions",
        type=int,
        default=40,
        help="Fig. 6 repetitions at most when its intervals are wider than the tolerance",
    )
    parser.add_argument(
        "--fabric-repetitions",
        type=int,
        help="runs per setting of the fabric figures (default: each figure's own, "
        + ", ".join(f"{n} {r}" for n, r in FABRIC_REPETITIONS.items())
        + ")",
    )
    parser.add_argument("-j", "--workers", type=int, help="local worker processes (default: cores)")
    parser.add_argument("--scheduler", help="address of a Dask scheduler to run on instead")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    return parser


def main(argv=None):
    """Run the command line; return the exit status (1 if the validation fails)."""
    parser = _parser()
    args = parser.parse_args(argv)
    every = [
        *FIGURES,
        *FABRIC_FIGURES,
        *CONGESTION_FIGURES,
        *ARGUMENT_FIGURES,
        *LOSS_FIGURES,
        *CC_VALIDATION_FIGURES,
    ]
    groups = {
        "all": list(FIGURES),
        "fabric": list(FABRIC_FIGURES),
        "congestion": list(CONGESTION_FIGURES),
        "argument": [*ARGUMENT_FIGURES, *LOSS_FIGURES],
        "cc-validation": list(CC_VALIDATION_FIGURES),
    }
    names = []
    for name in args.figures:
        group = groups.get(name, [name])
        names += [n for n in group if n not in names]
    for name in names:
        if name not in every:
            parser.error(
                f"figure = {name!r} is not a figure; valid: {', '.join(every)}, "
                f"{', '.join(groups)}"
            )
    if args.repetitions < 2:
        parser.error(f"repetitions = {args.repetitions} is out of range [2, ...] (intervals)")
    if args.fabric_repetitions is not None and args.fabric_repetitions < 2:
        parser.error(
            f"fabric-repetitions = {args.fabric_repetitions} is out of range [2, ...] (intervals)"
        )
    out = pathlib.Path(args.out)
    pathlib.Path(args.store).parent.mkdir(parents=True, exist_ok=True)
    options = {"workers": args.workers, "scheduler": args.scheduler, "progress": not args.quiet}
    start = time.monotonic()
    paper = [name for name in names if name in FIGURES]
    fabric = [name for name in names if name in FABRIC_FIGURES or name in ARGUMENT_FIGURES]
    for name in (n for n in names if n in CONGESTION_FIGURES):
        make_congestion_figure(name, out, args.workers)
        print(f"{name}: {out / name}.png, .pdf, .csv, .md", file=sys.stderr)
    for name in (n for n in names if n in CC_VALIDATION_FIGURES):
        make_cc_validation_figure(name, out, args.workers)
        print(f"{name}: {out / name}.png, .pdf, .csv, .md", file=sys.stderr)
    if fabric:
        with FabricCampaign(args.store) as campaign:
            for name in fabric:
                reps = args.fabric_repetitions or FABRIC_REPETITIONS[name]
                make_fabric_figure(campaign, name, out, reps, **options)
                print(f"{name}: {out / name}.png, .pdf, .csv, .md", file=sys.stderr)
    loss = [name for name in names if name in LOSS_FIGURES]
    if loss:
        with Campaign(args.store) as campaign:
            for name in loss:
                make_loss_figure(campaign, name, out, args.fabric_repetitions, **options)
                print(f"{name}: {out / name}.png, .pdf, .csv, .md", file=sys.stderr)
    tables = {}
    with Campaign(args.store) as campaign:
        # Every figure's runs in one batch, longest first, so that the workers
        # stay busy across figures; each figure then finds its runs stored.
        campaign.run(
            [grid for name in paper for grid in grids(name, args.transfers)],
            args.repetitions,
            **options,
        )
        for name in paper:
            tables[name] = make_figure(
                campaign, name, out, args.repetitions, args.transfers, **options
            )
            print(f"{name}: {out / name}.png, .pdf, .csv, .md", file=sys.stderr)
        if not {"fig4", "fig5", "fig6"} <= set(tables):
            print(f"done in {time.monotonic() - start:.0f} s", file=sys.stderr)
            return 0
        # The validation table needs intervals narrower than the tolerance:
        # points of Fig. 6 get more repetitions until they are (the table says how many).
        tables["fig6"] = validation_fig6(
            campaign, args.repetitions, args.max_validation_repetitions, args.transfers, **options
        )
        ok = validate(tables, out)
    print(
        f"validation: {'holds' if ok else 'FAILS'}; "
        f"{out / 'validation.md'}; done in {time.monotonic() - start:.0f} s",
        file=sys.stderr,
    )
    return 0 if ok else 1
