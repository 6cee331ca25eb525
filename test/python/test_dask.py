"""A small campaign through a local Dask cluster on the loopback interface."""

import distributed
import pandas as pd
import pytest

import drp

#: Pings make a run depend on the runs before it in the same process, so equal
#: results below show that both executors run each experiment in a fresh one.
GRID = {
    "method": ["traditional", "dynamic"],
    "frp": 0.3,
    "transfers": 50,
    "size": 4096,
    "pings": True,
    "ping_interval": "100us",
}

# Raised inside distributed's own use of tornado, not by drp.
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")


@pytest.fixture(scope="module")
def scheduler():
    with distributed.LocalCluster(
        n_workers=2, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def test_campaign_on_dask(tmp_path, scheduler):
    key = ["method", "run"]
    with drp.Campaign(tmp_path / "dask.db") as campaign:
        assert campaign.run(GRID, repetitions=2, scheduler=scheduler) == 4
        assert campaign.run(GRID, repetitions=2, scheduler=scheduler) == 0
        on_dask = campaign.runs_dataframe().sort_values(key).reset_index(drop=True)
        transfers = campaign.to_dataframe()
    with drp.Campaign(tmp_path / "local.db") as campaign:
        assert campaign.run(GRID, repetitions=2, workers=2) == 4
        local = campaign.runs_dataframe().sort_values(key).reset_index(drop=True)
    assert len(transfers) == 4 * 50
    assert (transfers.groupby(key).size() == 50).all()
    assert (on_dask["ping_replies"] > 0).all()
    compared = key + ["n", "successes", "indirect", "mean_us", "frames_lost", "ping_replies"]
    pd.testing.assert_frame_equal(on_dask[compared], local[compared])


def test_failed_run_on_dask_raises_its_error(tmp_path, scheduler):
    grid = {"transfers": 3, "size": 4096, "defaults": {"ns3::DrpTransport::Window": "0"}}
    with drp.Campaign(tmp_path / "dask.db") as campaign:
        with pytest.raises(ValueError, match=r"DrpTransport::Window = 0 is out of range"):
            campaign.run(grid, scheduler=scheduler)
        assert campaign.runs_dataframe().empty
