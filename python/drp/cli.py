"""The command line of scripts/drp-campaign (see ``drp-campaign --help``)."""

import argparse
import itertools
import shlex
import sqlite3
import sys
import textwrap
import warnings

from drp import _drp
from drp.campaign import FABRIC, P2P, BuildWarning, Campaign, FabricCampaign
from drp.experiment import PARAMETERS
from drp.fabric import FABRIC_PARAMETERS
from drp.store import NotAStoreError

DESCRIPTION = """\
Runs drp experiments: a grid of parameters times repetitions (run numbers
1..R), each run in its own process, into an SQLite results store. Running the
same command again computes only the runs the store lacks (an interrupted
campaign resumes), then prints the mean transfer time of each parameter
combination, repetitions pooled. With --fabric, the grid is one of fabric
experiments (hosts on switches; FabricScenario parameters) and it prints
their mean and 99th-percentile FCT, slowdown and drops. A store holds both
kinds; show, plot and the CSV exports take both.
"""

EPILOG = """\
parameters (-p NAME=V1,V2,...):
{parameters}
fabric parameters (run --fabric -p NAME=V1,V2,...):
{fabric_parameters}
ping_interval takes seconds or a time such as 1ms, rate bit/s or a rate such
as 10Gbps (so do host_rate and fabric_rate, duration a time such as 20ms);
ns-3 attribute defaults go with -d ATTRIBUTE=V1,V2,... (not with --fabric)

examples:
  drp-campaign run results.db -p method=traditional,dynamic -p frp=0.01,0.05,0.1 \\
      -p lfp=0.01,0.05,0.1 -p transfers=800 -r 5
  drp-campaign run results.db -p lfp=0.05 -d ns3::DrpTransport::HandshakeTimeout=1ms,2ms
  drp-campaign run results.db -p rate=1Gbps,10Gbps,40Gbps -p concurrency=1,4 -p lfp=0.01
  drp-campaign run results.db -p lfp=0.05 --scheduler tcp://127.0.0.1:8786
  drp-campaign run results.db --fabric -p method=traditional,dynamic -p hosts=5,9 \\
      -p workload=incast -p bytes=16384 -r 2
  drp-campaign show results.db --csv transfers.csv --runs-csv runs.csv
  drp-campaign plot results.db --x lfp --y mean_us --by method -o time.png
  drp-campaign plot results.db --cdf --by method -o cdf.pdf
  drp-campaign plot results.db --x hosts --y p99_slowdown --by method -o slowdown.png
"""

#: Parameters that -p sets (run numbers come from -r, attribute defaults from -d).
GRID_PARAMETERS = [
    name for name in PARAMETERS if name not in ("run", "defaults", "pcap", "ascii")
]

#: Parameters that -p sets with --fabric.
FABRIC_GRID_PARAMETERS = [name for name in FABRIC_PARAMETERS if name not in ("run", "defaults")]

#: Summary columns printed per parameter combination.
SHOWN = ["runs", "n", "successes", "indirect", "mean_us", "ci95_us", "frames_lost", "host_drops"]

#: Summary columns printed per parameter combination of fabric runs.
FABRIC_SHOWN = [
    "runs",
    "n",
    "successes",
    "mean_fct_us",
    "ci95_fct_us",
    "p99_fct_us",
    "p99_slowdown",
    "drops",
]

#: Parameters that take a rate such as "10Gbps" besides bit/s.
_RATES = ("rate", "host_rate", "fabric_rate")

#: The rounding of the printed columns.
_ROUNDING = {"mean_us": 1, "ci95_us": 1, "mean_fct_us": 1, "ci95_fct_us": 1, "p99_fct_us": 1,
             "p99_slowdown": 2}

_BOOLEANS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def _convert(name, text, default):
    """Convert a command-line value to the type of the parameter's default."""
    if isinstance(default, bool):
        if text.lower() not in _BOOLEANS:
            raise ValueError(f"{name} = {text!r} is not true or false")
        return _BOOLEANS[text.lower()]
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            if name in _RATES:
                return text  # a rate such as "10Gbps"; the binding checks it
            raise ValueError(f"{name} = {text!r} is not an integer") from None
    if isinstance(default, float):
        try:
            return float(text)
        except ValueError:
            return text  # a time such as "1ms"; the binding checks it
    return text


def _at_least_one(name):
    """Return the converter of an option's value: an integer, at least 1, named ``name``."""

    def convert(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} = {text!r} is not an integer") from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{name} = {value} is out of range [1, ...]")
        return value

    return convert


#: The value of -j.
_workers = _at_least_one("workers")


def _split(option, text):
    """Split NAME=V1,V2,... into the name and its values."""
    name, equals, values = text.partition("=")
    if not equals or not name or not values:
        raise ValueError(f"{option} {text!r} is not NAME=VALUE[,VALUE...]")
    return name, values.split(",")


def parse_grid(params, defaults, fabric=False):
    """Build a parameter grid from ``-p`` and ``-d`` options.

    ``params`` and ``defaults`` are lists of NAME=V1,V2,... strings; several
    ``-d`` options sweep every combination of their attribute values.
    ``fabric``: the parameters are those of fabric experiments
    (:data:`FABRIC_GRID_PARAMETERS`).
    """
    config = _drp.FabricConfig().to_dict() if fabric else _drp.Config().to_dict()
    names = FABRIC_GRID_PARAMETERS if fabric else GRID_PARAMETERS
    grid = {}
    for text in params:
        name, values = _split("-p", text)
        if name not in names:
            valid = ", ".join(names)
            kind = "fabric parameter" if fabric else "parameter"
            raise ValueError(f"-p {name}: unknown {kind}; valid: {valid}")
        grid[name] = [_convert(name, value, config[name]) for value in values]
    attributes = dict(_split("-d", text) for text in defaults)
    if attributes:
        grid["defaults"] = [
            dict(zip(attributes, values)) for values in itertools.product(*attributes.values())
        ]
    return grid


def _print_settings(settings, kind=P2P):
    """Print the pooled summary of each parameter combination of one kind.

    Shows the parameters that differ between combinations, and :data:`SHOWN`
    (:data:`FABRIC_SHOWN` for fabric runs); a mean or interval that is
    undefined shows as "-", with a column ``note`` that says why (e.g. "no
    successful transfers", or "no flows" for a fabric run whose workload
    asked for none).
    """
    fabric = kind is FABRIC
    names = FABRIC_PARAMETERS if fabric else PARAMETERS
    varied = [n for n in names if n in settings and settings[n].nunique() > 1]
    shown = settings[varied + (FABRIC_SHOWN if fabric else SHOWN)].round(_ROUNDING)
    if fabric:
        for column in ("mean_fct_us", "ci95_fct_us", "p99_fct_us", "p99_slowdown"):
            if shown[column].isna().any():
                digits = _ROUNDING[column]
                shown[column] = [f"{x:.{digits}f}" if x == x else "-" for x in shown[column]]
        if "note" in settings and (settings["note"].fillna("") != "").any():
            shown["note"] = settings["note"].fillna("")
    elif (settings["note"] != "").any():
        for column in ("mean_us", "ci95_us"):
            shown[column] = [f"{x:.1f}" if x == x else "-" for x in shown[column]]
        shown["note"] = settings["note"]
    print(shown.to_string(index=False))


def _print_all(selected):
    """Print the settings of each kind of run selected (``(campaign, grid, settings)``).

    A store of both kinds gets a heading per kind; none says "no runs stored".
    """
    shown = [(campaign, settings) for campaign, _, settings in selected if not settings.empty]
    if not shown:
        print("no runs stored")
        return
    for i, (campaign, settings) in enumerate(shown):
        if len(shown) > 1:
            heading = "fabric runs" if campaign.kind is FABRIC else "point-to-point runs"
            print(("\n" if i else "") + f"{heading}:")
        _print_settings(settings, campaign.kind)


def _frames(selected, method):
    """Return one DataFrame of ``method`` over the kinds selected that have runs.

    One kind: its frame as it is. Both: the two, one after the other, under
    their union of columns, with a first column ``scenario`` ("p2p" or
    "fabric").
    """
    import pandas as pd

    present = [(c, g) for c, g, settings in selected if not settings.empty] or selected[:1]
    frames = [(c.kind.name, getattr(c, method)(g)) for c, g, *_ in present]
    if len(frames) == 1:
        return frames[0][1]
    return pd.concat(
        [frame.astype(object).assign(scenario=name)[["scenario", *frame.columns]]
         for name, frame in frames],
        ignore_index=True,
    )


def _export(selected, args):
    """Write the CSV files the options ask for (``selected``: see :func:`_print_all`)."""
    if args.csv:
        _frames(selected, "to_dataframe").to_csv(args.csv, index=False)
    if args.runs_csv:
        _frames(selected, "runs_dataframe").to_csv(args.runs_csv, index=False)


def _sharing(cls, campaign):
    """Return a campaign of class ``cls`` on the store of ``campaign`` (not to be closed)."""
    other = cls.__new__(cls)
    other.store = campaign.store
    return other


def _parser():
    """Return the argument parser."""
    parser = argparse.ArgumentParser(
        prog="drp-campaign",
        description=DESCRIPTION,
        epilog=EPILOG.format(
            parameters=textwrap.fill(", ".join(GRID_PARAMETERS), 79),
            fabric_parameters=textwrap.fill(", ".join(FABRIC_GRID_PARAMETERS), 79),
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    output = argparse.ArgumentParser(add_help=False)
    output.add_argument(
        "store", help="SQLite results store (run: created if missing; show: must exist)"
    )
    output.add_argument(
        "--csv",
        metavar="FILE",
        help="write one row per transfer (both kinds: a first column scenario, p2p or fabric)",
    )
    output.add_argument("--runs-csv", metavar="FILE", help="write one row per run (as --csv)")

    run = commands.add_parser(
        "run",
        parents=[output],
        help="compute the missing runs of a grid and show it",
        description=DESCRIPTION,
        epilog=parser.epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument(
        "-p",
        "--param",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help="a parameter and its values (repeatable); unset ones keep their defaults",
    )
    run.add_argument(
        "-d",
        "--default",
        action="append",
        default=[],
        metavar="ATTRIBUTE=V1,V2",
        help="an ns-3 attribute default and its values, e.g. "
        "ns3::DrpTransport::Window=4,8 (repeatable)",
    )
    run.add_argument(
        "--fabric",
        action="store_true",
        help="a grid of fabric experiments (FabricScenario parameters; see drp.run_fabric)",
    )
    run.add_argument(
        "--program",
        metavar="PATH",
        help="--fabric: run each experiment by this rnic-fabric (built from the same source in "
        "an ns-3 tree; see drp.run_fabric)",
    )
    run.add_argument(
        "--ranks",
        type=_at_least_one("ranks"),
        default=1,
        metavar="N",
        help="--fabric with --program: split each run over N MPI ranks (mpirun -np N; the "
        "tree needs ns-3's mpi module) (1)",
    )
    run.add_argument(
        "--mpirun",
        default="mpirun",
        metavar="COMMAND",
        help="--ranks: the launcher and its own options, split as a shell splits words "
        "('mpirun --oversubscribe') (mpirun)",
    )
    run.add_argument(
        "-r", "--repetitions", type=int, default=1, metavar="R", help="run numbers 1..R (1)"
    )
    run.add_argument(
        "-j",
        "--workers",
        type=_workers,
        metavar="N",
        help="local worker processes, at least 1 (default: one per core)",
    )
    run.add_argument(
        "--scheduler", metavar="ADDRESS", help="run on this Dask scheduler instead of locally"
    )
    run.add_argument(
        "--recompute-other-builds",
        action="store_true",
        help="delete the grid's stored runs (1..R) of other builds of drp and compute them "
        "again with this one",
    )
    run.add_argument("-q", "--quiet", action="store_true", help="no progress bar")

    commands.add_parser("show", parents=[output], help="show (and export) every stored run")

    plot = commands.add_parser(
        "plot",
        help="plot every stored run: a summary column against a parameter, or CDFs",
        description="Plot the store's parameter combinations (repetitions pooled): "
        "summary column Y against X, one line per combination of the --by names "
        "(mean_us or mean_fct_us with its 95%% interval as error bars); or, with "
        "--cdf, the CDF of the successful transfers' times (FCTs) per combination of "
        "the --by names. X and --by name a parameter or an ns-3 attribute the runs set "
        "with -d. The runs plotted are those of one kind: fabric runs with --fabric, "
        "with a Y only fabric runs have (such as mean_fct_us, p99_slowdown), an X only "
        "their parameters have (such as hosts), or when the store holds only fabric "
        "runs; else those of the paper's kind. Prints the plotted values.",
    )
    plot.add_argument("store", help="SQLite results store (must exist)")
    plot.add_argument("-o", "--out", required=True, metavar="FILE", help="PNG or PDF to write")
    plot.add_argument("--x", metavar="NAME", help="parameter or attribute on the x axis")
    plot.add_argument(
        "--y",
        metavar="COLUMN",
        help="summary column (default mean_us; mean_fct_us for fabric runs)",
    )
    plot.add_argument(
        "--by", action="append", default=[], metavar="NAME", help="one line per value (repeatable)"
    )
    plot.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help="keep only the runs with one of these values (repeatable)",
    )
    plot.add_argument("--cdf", action="store_true", help="CDFs of the transfer times instead")
    plot.add_argument("--logx", action="store_true", help="logarithmic x axis")
    plot.add_argument("--fabric", action="store_true", help="plot the fabric runs")
    return parser


def _plot_kind(campaign, args):
    """Return the kind of runs to plot (see the help of ``plot``)."""
    if args.fabric:
        return FABRIC
    if args.y and args.y in FABRIC.summary and args.y not in P2P.summary:
        return FABRIC
    if args.x and args.x in FABRIC.names and args.x not in P2P.names:
        return FABRIC
    stored = campaign.store.runs_frame()["params"]
    kinds = {FABRIC if '"scenario": "fabric"' in key else P2P for key in stored}
    return FABRIC if kinds == {FABRIC} else P2P


def _plot(campaign, args):
    """Write the plot the options ask for and print its values."""
    from drp.plots import plot_cdf, plot_settings, select

    kind = _plot_kind(campaign, args)
    if kind is FABRIC:
        campaign = _sharing(FabricCampaign, campaign)
    where = dict(_split("--where", text) for text in args.where)
    if args.cdf:
        transfers = select(campaign.to_dataframe(), where)
        value = "fct_us" if kind is FABRIC else "duration_us"
        table = plot_cdf(transfers, args.out, by=args.by, value=value, logx=args.logx)
    else:
        if not args.x:
            raise ValueError("plot: --x NAME is required (or --cdf)")
        settings = select(campaign.settings_dataframe(), where)
        y = args.y or ("mean_fct_us" if kind is FABRIC else "mean_us")
        table = plot_settings(settings, args.x, y, args.out, by=args.by, logx=args.logx)
    print(table.round(3).to_string(index=False))
    print(f"wrote {args.out}")


def _warn_once(prog):
    """Return a warnings.showwarning that prints each message once, as one line."""
    shown = set()

    def show(message, category, filename, lineno, file=None, line=None):
        text = str(message)
        if text not in shown:
            shown.add(text)
            print(f"{prog}: warning: {text}", file=sys.stderr)

    return show


def main(argv=None):
    """Run the command line; return the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter("always", BuildWarning)
        warnings.showwarning = _warn_once(parser.prog)
        return _main(parser, args)


def _main(parser, args):
    """Run the parsed command; return the exit status."""
    try:
        fabric = args.command == "run" and args.fabric
        if args.command == "run" and not fabric and (args.program or args.ranks != 1):
            raise ValueError("--program and --ranks run fabric experiments: give --fabric")
        grid = parse_grid(args.param, args.default, fabric) if args.command == "run" else None
        with Campaign(args.store, read_only=args.command != "run") as campaign:
            if args.command == "plot":
                _plot(campaign, args)
                return 0
            fabric_campaign = _sharing(FabricCampaign, campaign)
            if grid is not None:
                options = dict(
                    workers=args.workers,
                    scheduler=args.scheduler,
                    progress=not args.quiet,
                    recompute_other_builds=args.recompute_other_builds,
                )
                if fabric:
                    launch = dict(program=args.program, ranks=args.ranks)
                    launch["mpirun"] = shlex.split(args.mpirun)
                    fabric_campaign.run(grid, args.repetitions, **launch, **options)
                else:
                    campaign.run(grid, args.repetitions, **options)
            # run: the grid's runs, of its kind; show: every run, of both kinds.
            kinds = [fabric_campaign] if fabric else [campaign]
            if grid is None:
                kinds = [campaign, fabric_campaign]
            selected = [(c, grid, c.settings_dataframe(grid)) for c in kinds]
            _print_all(selected)
            _export(selected, args)
    except (sqlite3.Error, OSError, NotAStoreError) as error:
        # A store or an output file that cannot be used: one line, as argparse's errors.
        message = " ".join(str(error).split())
        print(f"{parser.prog}: error: {message}", file=sys.stderr)
        return 2
    except (TypeError, ValueError) as error:
        parser.error("\n".join([str(error), *getattr(error, "__notes__", [])]))
    except KeyboardInterrupt:
        print("interrupted: the finished runs are stored; run again to resume", file=sys.stderr)
        return 130
    return 0
