"""Campaigns: grid x repetitions, resuming, exports and the results store."""

import json
import os
import pathlib
import re
import sqlite3
import subprocess
import sys

import pandas as pd
import pytest

import drp
from drp.experiment import PARAMETERS, RECORD_COLUMNS, SUMMARY
from drp.store import Store

ROOT = pathlib.Path(__file__).resolve().parents[2]

#: Two methods x two loss probabilities of quick experiments.
GRID = {"method": ["traditional", "dynamic"], "lfp": [0.0, 0.05], "transfers": 3, "size": 4096}


@pytest.fixture
def campaign(tmp_path):
    with drp.Campaign(tmp_path / "results.db") as campaign:
        yield campaign


def test_grid_times_repetitions(campaign):
    assert len(drp.param_combinations(GRID)) == 4
    assert campaign.run(GRID, repetitions=2, workers=2) == 8
    runs = campaign.runs_dataframe(GRID)
    assert len(runs) == 8
    assert sorted(runs.groupby(["method", "lfp"]).size()) == [2, 2, 2, 2]
    assert sorted(runs["run"]) == [1, 1, 1, 1, 2, 2, 2, 2]
    assert (runs["n"] == 3).all()
    settings = campaign.settings_dataframe(GRID)
    assert len(settings) == 4
    assert (settings["runs"] == 2).all()
    # Without loss nothing is drawn: the two repetitions are one run, pooled once.
    lossless = settings["lfp"] == 0
    assert (settings[~lossless]["n"] == 6).all() and (settings[lossless]["n"] == 3).all()
    assert (settings[lossless]["note"] == "2 runs, 1 distinct: identical runs counted once").all()


def test_resume_computes_only_missing_runs(campaign):
    subset = dict(GRID, method=["traditional"])
    assert campaign.run(subset, repetitions=1, workers=2) == 2
    assert len(campaign.missing(GRID, repetitions=2)) == 6
    assert campaign.run(GRID, repetitions=2, workers=2) == 6
    assert campaign.run(GRID, repetitions=2, workers=2) == 0
    assert len(campaign.runs_dataframe()) == 8


def test_missing_runs_go_repetition_by_repetition_longest_first(campaign):
    grid = {"payload": [1024, 256, 512], "transfers": 2, "size": 8192}
    order = [(p["run"], p["payload"]) for p in campaign.missing(grid, repetitions=2)]
    assert order == [(1, 256), (1, 512), (1, 1024), (2, 256), (2, 512), (2, 1024)]


def test_an_interrupted_campaign_resumes(campaign, monkeypatch):
    add = Store.add
    stored = []

    def add_then_interrupt(self, *args):
        add(self, *args)
        stored.append(args)
        if len(stored) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(Store, "add", add_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        campaign.run(GRID, repetitions=2, workers=2)
    monkeypatch.setattr(Store, "add", add)
    assert len(campaign.runs_dataframe()) == 3
    assert campaign.run(GRID, repetitions=2, workers=2) == 5


def test_dataframe_export_matches_a_run_in_process(campaign):
    grid = dict(GRID, frp=0.3, transfers=5)
    campaign.run(grid, repetitions=2, workers=2)
    frame = campaign.to_dataframe(grid)
    assert list(frame.columns) == list(PARAMETERS) + list(RECORD_COLUMNS)
    assert len(frame) == 4 * 2 * 5
    one = frame[(frame["method"] == "dynamic") & (frame["lfp"] == 0.05) & (frame["run"] == 2)]
    expected = drp.run(method="dynamic", frp=0.3, lfp=0.05, transfers=5, size=4096, run=2)
    pd.testing.assert_frame_equal(one.reset_index(drop=True), expected.records, check_dtype=False)
    runs = campaign.runs_dataframe(grid)
    assert list(runs.columns) == list(PARAMETERS) + [
        "version",
        "git_revision",
        "finished",
        *SUMMARY,
    ]
    assert campaign.to_dataframe(dict(grid, method="dynamic")).shape == (2 * 2 * 5, frame.shape[1])


def test_rate_and_concurrency_are_swept_like_any_parameter(campaign):
    grid = {"rate": ["1Gbps", "10Gbps"], "concurrency": [1, 2], "transfers": 4, "size": 4096}
    assert campaign.run(grid, workers=2, progress=False) == 4
    settings = campaign.settings_dataframe(grid)
    assert sorted(zip(settings["rate"], settings["concurrency"])) == [
        (1_000_000_000, 1),
        (1_000_000_000, 2),
        (10_000_000_000, 1),
        (10_000_000_000, 2),
    ]
    # The same run, however the rate is written.
    assert campaign.run(dict(grid, rate=[10**9, 1e10]), workers=2, progress=False) == 0
    means = settings.set_index(["rate", "concurrency"])["mean_us"]
    assert means[10_000_000_000, 1] < means[1_000_000_000, 1]
    transfers = campaign.to_dataframe(grid)
    assert {"rate", "concurrency"} <= set(transfers.columns)
    one = transfers[(transfers["rate"] == 10**10) & (transfers["concurrency"] == 2)]
    expected = drp.run(rate="10Gbps", concurrency=2, transfers=4, size=4096).records
    pd.testing.assert_frame_equal(one.reset_index(drop=True), expected, check_dtype=False)


def test_runs_stored_before_rate_and_concurrency_keep_their_identity(campaign):
    # A run at the rate and concurrency every run had before the two existed
    # is stored under the identity it had then: an older store resumes.
    grid = dict(GRID, method="dynamic", lfp=0.0)
    campaign.run(grid, workers=1, progress=False)
    params = drp.param_combinations(grid)[0]
    later = ("rate", "concurrency", "pcap", "ascii", "nic", "payload", "mtu")
    earlier = {k: v for k, v in params.items() if k not in later}
    with sqlite3.connect(campaign.store.path) as db:
        assert db.execute("SELECT params FROM runs").fetchall() == [
            (json.dumps(earlier, sort_keys=True),)
        ]
    assert campaign.run(dict(grid, rate=["1Gbps", "10Gbps"]), workers=1, progress=False) == 1
    runs = campaign.runs_dataframe()
    assert sorted(runs["rate"]) == [1_000_000_000, 10_000_000_000]
    assert (runs["concurrency"] == 1).all()


def test_grids_in_a_list_or_tuple_combine_and_other_grids_are_refused():
    lossy = {"method": ["traditional", "dynamic"], "lfp": 0.05, "transfers": 3}
    lossless = {"method": "dynamic", "lfp": 0.0, "transfers": 3}
    together = drp.param_combinations([lossy, lossless])
    assert len(together) == 3
    assert drp.param_combinations((lossy, lossless)) == together
    with pytest.raises(TypeError, match="a grid is a mapping .* not str"):
        drp.param_combinations("method=dynamic")


def test_command_line_takes_rates_and_concurrency():
    from drp import cli

    grid = cli.parse_grid(["rate=1Gbps,10000000000,2.5Gbps", "concurrency=1,4"], [])
    assert grid == {"rate": ["1Gbps", 10_000_000_000, "2.5Gbps"], "concurrency": [1, 4]}
    combinations = drp.param_combinations(grid)
    assert sorted((p["rate"], p["concurrency"]) for p in combinations) == [
        (rate, concurrency)
        for rate in (1_000_000_000, 2_500_000_000, 10_000_000_000)
        for concurrency in (1, 4)
    ]
    with pytest.raises(ValueError, match="concurrency = 'two' is not an integer"):
        cli.parse_grid(["concurrency=two"], [])
    with pytest.raises(ValueError, match='rate = "fast" is not a data rate'):
        drp.param_combinations(cli.parse_grid(["rate=fast"], []))


def test_store_keeps_version_and_git_revision(campaign):
    campaign.run(dict(GRID, method="dynamic", lfp=0.0), workers=1, progress=False)
    # The build's revision: a commit of this repository (HEAD when it was built).
    assert re.fullmatch(r"[0-9a-f]{40}(-dirty)?|unknown", drp.GIT_REVISION)
    if drp.GIT_REVISION != "unknown":
        commit = drp.GIT_REVISION.removesuffix("-dirty")
        git = ["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"]
        assert subprocess.run(git).returncode == 0
    with sqlite3.connect(campaign.store.path) as db:
        rows = db.execute("SELECT version, git_revision, wall_seconds, params FROM runs").fetchall()
        assert db.execute("SELECT count(*) FROM transfers").fetchone() == (3,)
    assert [row[:2] for row in rows] == [(drp.__version__, drp.GIT_REVISION)]
    assert rows[0][2] > 0 and '"method": "dynamic"' in rows[0][3]


def _add_run_of_another_build(campaign, **params):
    """Store a run of ``params`` as if another build had computed it."""
    result = {
        "version": "0.0.1",
        "counters": dict.fromkeys(SUMMARY, 0),
        "summary": dict.fromkeys(SUMMARY, 0),
        "columns": {name: [] for name in RECORD_COLUMNS},
    }
    campaign.store.add(drp.parameters(**params), result, "0123abc")


def test_runs_of_another_build_are_reported(campaign):
    _add_run_of_another_build(campaign, transfers=3, size=4096)
    with pytest.warns(drp.BuildWarning, match="1 of the 1 selected runs come from other builds"):
        campaign.run({"transfers": 3, "size": 4096}, repetitions=2, workers=1)
    with pytest.warns(drp.BuildWarning, match="1 of the 2 selected runs"):
        assert set(campaign.runs_dataframe()["version"]) == {"0.0.1", drp.__version__}


def test_a_complete_grid_of_another_build_is_reported(campaign, recwarn):
    grid = {"transfers": 3, "size": 4096}
    _add_run_of_another_build(campaign, **grid)
    _add_run_of_another_build(campaign, transfers=4, size=4096)  # not selected
    with pytest.warns(drp.BuildWarning) as warned:
        assert campaign.run(grid, workers=1) == 0
    message = str(warned[0].message)
    assert "1 of the 1 selected runs come from other builds than this one" in message
    assert "0.0.1 0123abc" in message and "recompute_other_builds=True" in message
    for frame in ("to_dataframe", "runs_dataframe", "settings_dataframe"):
        with pytest.warns(drp.BuildWarning, match="selected runs come from other builds"):
            getattr(campaign, frame)(grid)
    with pytest.warns(drp.BuildWarning, match="2 of the 2 selected runs"):
        campaign.settings_dataframe()
    recwarn.clear()
    assert campaign.run(grid, workers=1, progress=False, recompute_other_builds=True) == 1
    assert set(campaign.runs_dataframe(grid)["version"]) == {drp.__version__}
    assert campaign.runs_dataframe(grid)["n"].tolist() == [3]
    assert not [w for w in recwarn if issubclass(w.category, drp.BuildWarning)]


def test_command_line_reports_runs_of_another_build(tmp_path, capsys):
    from drp import cli

    path = tmp_path / "cli.db"
    with drp.Campaign(path) as campaign:
        _add_run_of_another_build(campaign, transfers=3, size=4096)
    grid = ["-p", "transfers=3", "-p", "size=4096"]
    for argv in (["run", str(path), *grid, "-q"], ["show", str(path)]):
        assert cli.main(argv) == 0
        err = capsys.readouterr().err
        assert err.count("drp-campaign: warning: ") == 1, err
        assert "1 of the 1 selected runs come from other builds" in err
        assert "--recompute-other-builds" in err
    argv = ["run", str(path), *grid, "-q", "-j", "1", "--recompute-other-builds"]
    assert cli.main(argv) == 0
    assert "warning" not in capsys.readouterr().err
    assert cli.main(["show", str(path)]) == 0
    assert "warning" not in capsys.readouterr().err


def test_invalid_grids_raise_before_running(campaign):
    with pytest.raises(ValueError, match=r"frp = 2 is out of range \[0, 1\]"):
        campaign.run(dict(GRID, frp=[0.1, 2]))
    with pytest.raises(TypeError, match="unknown parameter 'repetition'"):
        campaign.run(dict(GRID, repetition=[1, 2]))
    with pytest.raises(ValueError, match="run is not a grid parameter"):
        campaign.run(dict(GRID, run=[1, 2]))
    assert campaign.runs_dataframe().empty


def test_a_failing_run_stops_the_campaign(campaign):
    grid = dict(GRID, defaults=[{}, {"ns3::DrpTransport::Window": "0"}])
    with pytest.raises(ValueError, match=r"DrpTransport::Window = 0 is out of range"):
        campaign.run(grid, workers=1)
    assert set(campaign.runs_dataframe()["defaults"]) <= {"{}"}


def test_a_worker_that_dies_without_an_answer_raises():
    from multiprocessing import get_context

    from drp import executors

    context = get_context("forkserver")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=os._exit, args=(3,))
    process.start()
    sender.close()
    with pytest.raises(RuntimeError, match="exit code 3 without a result") as raised:
        executors._answer(receiver, process, {"run": 7})
    assert "in the drp run of {'run': 7}" in raised.value.__notes__


def test_command_line(tmp_path):
    # The script finds the package through DRP_BUILD, not PYTHONPATH, and its
    # worker processes must find it too.
    build = pathlib.Path(drp.__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["DRP_BUILD"] = str(build)
    command = [sys.executable, str(ROOT / "scripts" / "drp-campaign")]
    store = str(tmp_path / "cli.db")
    common = ["-p", "transfers=3", "-p", "size=4096", "-j", "2", "-q"]
    run = subprocess.run(
        command + ["run", store, "-p", "method=traditional,dynamic", *common, "-r", "2"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    assert "traditional" in run.stdout and "dynamic" in run.stdout
    csv = tmp_path / "transfers.csv"
    show = subprocess.run(
        command + ["show", store, "--csv", str(csv)], capture_output=True, text=True, env=env
    )
    assert show.returncode == 0, show.stderr
    assert len(pd.read_csv(csv)) == 2 * 2 * 3
    bad = subprocess.run(
        command + ["run", store, "-p", "lfp=2", "-q"], capture_output=True, text=True, env=env
    )
    assert bad.returncode == 2 and "lfp = 2 is out of range" in bad.stderr


@pytest.mark.parametrize("workers", [0, -1])
def test_workers_must_be_at_least_one(campaign, workers):
    with pytest.raises(ValueError, match=rf"workers = {workers} is out of range \[1, "):
        campaign.run(GRID, workers=workers, progress=False)
    assert campaign.runs_dataframe().empty


def test_command_line_refuses_workers_below_one(tmp_path, capsys):
    from drp import cli

    with pytest.raises(SystemExit) as exit_:
        cli.main(["run", str(tmp_path / "cli.db"), "-p", "transfers=3", "-j", "-1", "-q"])
    assert exit_.value.code == 2
    assert "workers = -1 is out of range [1, " in capsys.readouterr().err
    assert not (tmp_path / "cli.db").exists()


def test_a_database_of_something_else_is_not_taken_over(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE samples (x REAL)")
    message = r"other.db: not a drp results store \(it has tables samples\)"
    with pytest.raises(ValueError, match=message):
        drp.Campaign(path)
    with sqlite3.connect(path) as db:
        tables = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        assert tables == [("samples",)]
        assert db.execute("PRAGMA user_version").fetchone() == (0,)


def test_a_database_without_tables_becomes_a_store(tmp_path):
    path = tmp_path / "empty.db"
    path.touch()
    with drp.Campaign(path) as campaign:
        assert campaign.runs_dataframe().empty


def test_show_reads_and_never_creates_a_store(tmp_path, capsys):
    from drp import cli

    missing = tmp_path / "missing.db"
    assert cli.main(["show", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "drp-campaign: error:" in err and "missing.db" in err
    assert not missing.exists()
    store = tmp_path / "store.db"
    drp.Campaign(store).close()
    before = store.read_bytes()
    assert cli.main(["show", str(store)]) == 0
    assert "no runs stored" in capsys.readouterr().out
    assert store.read_bytes() == before


@pytest.mark.parametrize("command", ["show", "run"])
def test_a_corrupt_store_gives_a_one_line_error(tmp_path, capsys, command):
    from drp import cli

    path = tmp_path / "corrupt.db"
    path.write_bytes(b"this is not an SQLite file\n" * 100)
    assert cli.main([command, str(path), *(["-q"] if command == "run" else [])]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("drp-campaign: error: ") and "corrupt.db" in err
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE samples (x REAL)")
    assert cli.main([command, str(other), *(["-q"] if command == "run" else [])]) == 2
    assert "not a drp results store" in capsys.readouterr().err


def test_show_says_when_no_transfer_succeeded(tmp_path, capsys):
    from drp import cli

    path = tmp_path / "cli.db"
    runs_csv = tmp_path / "runs.csv"
    argv = ["run", str(path), "-p", "transfers=3", "-p", "size=4096", "-p", "frp=0,1", "-q"]
    assert cli.main(argv + ["--runs-csv", str(runs_csv)]) == 0
    out = capsys.readouterr().out
    assert "no successful transfers" in out and "nan" not in out.lower(), out
    assert cli.main(["show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "no successful transfers" in out and "nan" not in out.lower(), out
    runs = pd.read_csv(runs_csv, keep_default_na=False)
    assert sorted(runs["note"]) == ["", "no successful transfers"]


#: Fabric experiments of a command-line campaign: 2 methods x 2 host counts.
FABRIC_ARGS = ["--fabric", "-p", "method=traditional,dynamic", "-p", "hosts=3,5",
               "-p", "bytes=16384", "-p", "queue=8p", "-p", "frp=0.2"]


@pytest.fixture(scope="module")
def mixed_store(tmp_path_factory):
    """A store of 8 runs of the paper's kind and 8 fabric runs, by the command line."""
    from drp import cli

    path = tmp_path_factory.mktemp("mixed") / "mixed.db"
    assert cli.main(["run", str(path), "-p", "method=traditional,dynamic",
                     "-p", "lfp=0.0,0.05", "-p", "transfers=3", "-p", "size=4096",
                     "-r", "2", "-j", "2", "-q"]) == 0
    assert cli.main(["run", str(path), *FABRIC_ARGS, "-r", "2", "-j", "2", "-q"]) == 0
    return path


def test_command_line_runs_a_fabric_grid(mixed_store, capsys):
    from drp import cli

    # Run again: nothing left to compute; prints the fabric grid's summary.
    assert cli.main(["run", str(mixed_store), *FABRIC_ARGS, "-r", "2", "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["hosts", "method", "runs", "n", "successes", "mean_fct_us",
                              "ci95_fct_us", "p99_fct_us", "p99_slowdown", "drops"]
    assert len(out) == 5
    with drp.FabricCampaign(mixed_store, read_only=True) as campaign:
        assert len(campaign.runs_dataframe()) == 8
    with pytest.raises(SystemExit):
        cli.main(["run", str(mixed_store), "--fabric", "-p", "lfp=0.1", "-q"])
    assert "-p lfp: unknown fabric parameter" in capsys.readouterr().err


def test_show_lists_every_run_of_both_kinds(mixed_store, tmp_path, capsys):
    from drp import cli

    transfers, runs = tmp_path / "transfers.csv", tmp_path / "runs.csv"
    argv = ["show", str(mixed_store), "--csv", str(transfers), "--runs-csv", str(runs)]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    p2p, fabric = out.split("\n\nfabric runs:\n")
    assert p2p.splitlines()[0] == "point-to-point runs:"
    assert p2p.splitlines()[1].split()[:3] == ["method", "lfp", "runs"]
    assert len(p2p.splitlines()) == 2 + 4
    assert fabric.splitlines()[0].split()[-3:] == ["p99_fct_us", "p99_slowdown", "drops"]
    assert len(fabric.splitlines()) == 1 + 4
    runs = pd.read_csv(runs)
    assert len(runs) == 16 and runs["scenario"].value_counts().to_dict() == {"p2p": 8, "fabric": 8}
    fabric_runs = runs[runs["scenario"] == "fabric"]
    assert fabric_runs["mean_fct_us"].notna().all() and fabric_runs["drops"].notna().all()
    assert runs.loc[runs["scenario"] == "p2p", "mean_us"].notna().all()
    transfers = pd.read_csv(transfers)
    with drp.FabricCampaign(mixed_store, read_only=True) as campaign:
        assert (transfers["scenario"] == "fabric").sum() == len(campaign.to_dataframe())
    assert (transfers["scenario"] == "p2p").sum() == 8 * 3


def test_show_of_a_fabric_store_exports_the_fabric_columns(tmp_path, capsys):
    from drp import cli

    path = tmp_path / "fabric.db"
    assert cli.main(["run", str(path), *FABRIC_ARGS[:5], "-p", "bytes=16384", "-q"]) == 0
    capsys.readouterr()
    transfers = tmp_path / "t.csv"
    assert cli.main(["show", str(path), "--csv", str(transfers)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:2] == ["hosts", "method"] and len(out) == 5
    from drp.fabric import TRANSFER_COLUMNS

    columns = pd.read_csv(transfers).columns
    assert "scenario" not in columns and set(TRANSFER_COLUMNS) <= set(columns)


@pytest.mark.parametrize(
    "y, label", [("mean_fct_us", "mean FCT (µs)"), ("p99_slowdown", "99th-percentile slowdown"),
                 ("drops", "switch queue drops (frames)")]
)
def test_command_line_plots_fabric_summary_columns(mixed_store, tmp_path, capsys, y, label):
    from drp import cli

    out = tmp_path / "fabric.png"
    assert cli.main(["plot", str(mixed_store), "--x", "hosts", "--y", y, "--by", "method",
                     "-o", str(out)]) == 0
    assert out.stat().st_size > 0
    table = capsys.readouterr().out
    assert "method=dynamic" in table and "wrote" in table
    with drp.FabricCampaign(mixed_store, read_only=True) as campaign:
        settings = campaign.settings_dataframe()
    expected = sorted(settings[y].round(3))
    lines = [line.split() for line in table.splitlines()[1:-1]]
    assert sorted(float(line[2]) for line in lines) == pytest.approx(expected, abs=1e-3)


def test_command_line_plots_fabric_cdfs(mixed_store, tmp_path, capsys):
    from drp import cli

    out = tmp_path / "cdf.png"
    assert cli.main(["plot", str(mixed_store), "--fabric", "--cdf", "--by", "hosts",
                     "-o", str(out)]) == 0
    table = capsys.readouterr().out
    assert "hosts=3" in table and "hosts=5" in table
    # The paper's runs stay the default where a column names both kinds.
    assert cli.main(["plot", str(mixed_store), "--x", "lfp", "--by", "method",
                     "-o", str(out)]) == 0
    assert "method=dynamic" in capsys.readouterr().out


def _script_env():
    """The environment of a script run by a test: it finds this drp package."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(drp.__file__)))
    paths = [package, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(paths))


def test_a_script_without_a_main_guard_is_told_what_to_do(tmp_path):
    """A campaign at a script's top level: one error that names the guard, not one per worker."""
    store = str(tmp_path / "runs.db")
    script = tmp_path / "unguarded.py"
    script.write_text(
        "import drp\n"
        f"with drp.Campaign({store!r}) as campaign:\n"
        '    campaign.run({"transfers": 3, "size": 4096, "lfp": [0.0, 0.05]}, repetitions=1,\n'
        "                 workers=2, progress=False)\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=tmp_path, env=_script_env(), timeout=120)
    assert done.returncode != 0
    assert 'Put the campaign under an `if __name__ == "__main__":` guard' in done.stderr
    assert done.stderr.count("Traceback") == 1, done.stderr
    assert "without a result" not in done.stderr


def test_the_readme_campaign_block_runs_as_a_script(tmp_path):
    """README.md's Python block with a campaign, saved as a script and run as it is."""
    text = (ROOT / "README.md").read_text()
    block = next(b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "Campaign" in b)
    (tmp_path / "results").mkdir()
    (tmp_path / "example.py").write_text(block)
    done = subprocess.run([sys.executable, "example.py"], capture_output=True, text=True,
                          cwd=tmp_path, env=_script_env(), timeout=600)
    assert done.returncode == 0, done.stderr
    with drp.FabricCampaign(tmp_path / "results" / "incast.db", read_only=True) as campaign:
        assert len(campaign.runs_dataframe()) == 3 * 2 * 5


def test_identical_repetitions_are_pooled_once(tmp_path):
    """A setting with nothing random in it: its repetitions are the same run, counted once
    in the pooled interval, and the note says so; repetitions that differ are all pooled."""
    with drp.FabricCampaign(tmp_path / "fabric.db") as campaign:
        campaign.run({"hosts": 3, "degree": 2, "bytes": 16384}, repetitions=3, workers=2,
                     progress=False)
        settings = campaign.settings_dataframe()
        assert settings["runs"].tolist() == [3] and settings["n"].tolist() == [2]
        assert settings["note"].tolist() == ["3 runs, 1 distinct: identical runs counted once"]
        assert campaign.runs_dataframe()["n"].tolist() == [2, 2, 2]
    with drp.Campaign(tmp_path / "p2p.db") as campaign:
        grid = {"transfers": 3, "size": 4096, "lfp": [0.0, 0.1]}
        campaign.run(grid, repetitions=2, workers=2, progress=False)
        settings = campaign.settings_dataframe(grid).sort_values("lfp")
        assert settings["n"].tolist() == [3, 6]
        assert settings["note"].tolist() == ["2 runs, 1 distinct: identical runs counted once", ""]
