"""The command line of scripts/drp-campaign (see ``drp-campaign --help``)."""

import argparse
import itertools
import sqlite3
import sys
import textwrap
import warnings

from drp import _drp
from drp.campaign import BuildWarning, Campaign
from drp.experiment import PARAMETERS
from drp.store import NotAStoreError

DESCRIPTION = """\
Runs drp experiments: a grid of parameters times repetitions (run numbers
1..R), each run in its own process, into an SQLite results store. Running the
same command again computes only the runs the store lacks (an interrupted
campaign resumes), then prints the mean transfer time of each parameter
combination, repetitions pooled.
"""

EPILOG = """\
parameters (-p NAME=V1,V2,...):
{parameters}
ping_interval takes seconds or a time such as 1ms, rate bit/s or a rate such
as 10Gbps; ns-3 attribute defaults go with -d ATTRIBUTE=V1,V2,...

examples:
  drp-campaign run results.db -p method=traditional,dynamic -p frp=0.01,0.05,0.1 \\
      -p lfp=0.01,0.05,0.1 -p transfers=800 -r 5
  drp-campaign run results.db -p lfp=0.05 -d ns3::DrpTransport::HandshakeTimeout=1ms,2ms
  drp-campaign run results.db -p rate=1Gbps,10Gbps,40Gbps -p concurrency=1,4 -p lfp=0.01
  drp-campaign run results.db -p lfp=0.05 --scheduler tcp://127.0.0.1:8786
  drp-campaign show results.db --csv transfers.csv --runs-csv runs.csv
  drp-campaign plot results.db --x lfp --y mean_us --by method -o time.png
  drp-campaign plot results.db --cdf --by method -o cdf.pdf
"""

#: Parameters that -p sets (run numbers come from -r, attribute defaults from -d).
GRID_PARAMETERS = [name for name in PARAMETERS if name not in ("run", "defaults")]

#: Summary columns printed per parameter combination.
SHOWN = ["runs", "n", "successes", "indirect", "mean_us", "ci95_us", "frames_lost", "host_drops"]

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
            if name == "rate":
                return text  # a rate such as "10Gbps"; the binding checks it
            raise ValueError(f"{name} = {text!r} is not an integer") from None
    if isinstance(default, float):
        try:
            return float(text)
        except ValueError:
            return text  # a time such as "1ms"; the binding checks it
    return text


def _workers(text):
    """Convert the value of -j: an integer, at least 1."""
    try:
        workers = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"workers = {text!r} is not an integer") from None
    if workers < 1:
        raise argparse.ArgumentTypeError(f"workers = {workers} is out of range [1, ...]")
    return workers


def _split(option, text):
    """Split NAME=V1,V2,... into the name and its values."""
    name, equals, values = text.partition("=")
    if not equals or not name or not values:
        raise ValueError(f"{option} {text!r} is not NAME=VALUE[,VALUE...]")
    return name, values.split(",")


def parse_grid(params, defaults):
    """Build a parameter grid from ``-p`` and ``-d`` options.

    ``params`` and ``defaults`` are lists of NAME=V1,V2,... strings; several
    ``-d`` options sweep every combination of their attribute values.
    """
    config = _drp.Config().to_dict()
    grid = {}
    for text in params:
        name, values = _split("-p", text)
        if name not in GRID_PARAMETERS:
            valid = ", ".join(GRID_PARAMETERS)
            raise ValueError(f"-p {name}: unknown parameter; valid: {valid}")
        grid[name] = [_convert(name, value, config[name]) for value in values]
    attributes = dict(_split("-d", text) for text in defaults)
    if attributes:
        grid["defaults"] = [
            dict(zip(attributes, values)) for values in itertools.product(*attributes.values())
        ]
    return grid


def _print_settings(settings):
    """Print the pooled summary of each parameter combination.

    Shows the parameters that differ between combinations, and :data:`SHOWN`;
    a mean or interval that is undefined shows as "-", with a column ``note``
    that says why (e.g. "no successful transfers").
    """
    if settings.empty:
        print("no runs stored")
        return
    varied = [n for n in PARAMETERS if n in settings and settings[n].nunique() > 1]
    shown = settings[varied + SHOWN].round({"mean_us": 1, "ci95_us": 1})
    if (settings["note"] != "").any():
        for column in ("mean_us", "ci95_us"):
            shown[column] = [f"{x:.1f}" if x == x else "-" for x in shown[column]]
        shown["note"] = settings["note"]
    print(shown.to_string(index=False))


def _export(campaign, grid, args):
    """Write the CSV files the options ask for."""
    if args.csv:
        campaign.to_dataframe(grid).to_csv(args.csv, index=False)
    if args.runs_csv:
        campaign.runs_dataframe(grid).to_csv(args.runs_csv, index=False)


def _parser():
    """Return the argument parser."""
    parser = argparse.ArgumentParser(
        prog="drp-campaign",
        description=DESCRIPTION,
        epilog=EPILOG.format(parameters=textwrap.fill(", ".join(GRID_PARAMETERS), 79)),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    output = argparse.ArgumentParser(add_help=False)
    output.add_argument(
        "store", help="SQLite results store (run: created if missing; show: must exist)"
    )
    output.add_argument("--csv", metavar="FILE", help="write one row per transfer")
    output.add_argument("--runs-csv", metavar="FILE", help="write one row per run")

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
        "(mean_us with its 95%% interval as error bars); or, with --cdf, the CDF of "
        "the successful transfers' times per combination of the --by names. X and "
        "--by name a parameter or an ns-3 attribute the runs set with -d. Prints the "
        "plotted values.",
    )
    plot.add_argument("store", help="SQLite results store (must exist)")
    plot.add_argument("-o", "--out", required=True, metavar="FILE", help="PNG or PDF to write")
    plot.add_argument("--x", metavar="NAME", help="parameter or attribute on the x axis")
    plot.add_argument(
        "--y", metavar="COLUMN", default="mean_us", help="summary column (default mean_us)"
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
    return parser


def _plot(campaign, args):
    """Write the plot the options ask for and print its values."""
    from drp.plots import plot_cdf, plot_settings, select

    where = dict(_split("--where", text) for text in args.where)
    if args.cdf:
        transfers = select(campaign.to_dataframe(), where)
        table = plot_cdf(transfers, args.out, by=args.by, logx=args.logx)
    else:
        if not args.x:
            raise ValueError("plot: --x NAME is required (or --cdf)")
        settings = select(campaign.settings_dataframe(), where)
        table = plot_settings(settings, args.x, args.y, args.out, by=args.by, logx=args.logx)
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
        grid = parse_grid(args.param, args.default) if args.command == "run" else None
        with Campaign(args.store, read_only=args.command != "run") as campaign:
            if args.command == "plot":
                _plot(campaign, args)
                return 0
            if grid is not None:
                campaign.run(
                    grid,
                    args.repetitions,
                    workers=args.workers,
                    scheduler=args.scheduler,
                    progress=not args.quiet,
                    recompute_other_builds=args.recompute_other_builds,
                )
            _print_settings(campaign.settings_dataframe(grid))
            _export(campaign, grid, args)
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
