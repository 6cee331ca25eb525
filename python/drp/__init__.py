"""drp: dynamic RDMA over lossy Ethernet (an ns-3 module), from Python.

One experiment, in this process::

    import drp

    result = drp.run(method="dynamic", frp=0.05, lfp=0.05, transfers=100)
    result.records    # pandas DataFrame, one row per transfer
    result.summary    # dict: n, successes, mean_us, ci95_us, indirect, frames_lost, ...

A grid of experiments times repetitions, in parallel, into a results store
that a second invocation resumes (see :mod:`drp.campaign`)::

    with drp.Campaign("results.db") as campaign:
        campaign.run({"method": ["traditional", "dynamic"], "lfp": [0.01, 0.05]}, repetitions=5)
        campaign.to_dataframe()

Parameters and their meaning are those of the C++ ``DrpScenario::Config``
under snake_case names; ``help(drp.Config)`` lists them.

Fabric experiments (``FabricScenario``: hosts on switches, incast, Poisson
web-search traffic, FCT and slowdown), alone or as a campaign::

    result = drp.run_fabric(topology="leaf-spine", leaves=4, spines=2, hosts=8,
                            workload="poisson", load=0.5, duration="20ms")
    result.slowdown_by_size(4)
    with drp.FabricCampaign("results.db") as campaign:
        campaign.run({"workload": "incast", "degree": [2, 8], "queue": "32p"}, repetitions=3)
"""

from drp._build import GIT_REVISION
from drp._drp import Config, FabricConfig, MeanInterval, __version__, mean_interval
from drp.campaign import BuildWarning, Campaign, FabricCampaign, param_combinations
from drp.experiment import RunResult, parameters, run, summarize
from drp.fabric import (
    FabricRunResult,
    Launch,
    fabric_parameters,
    hpcc_config,
    run_fabric,
    slowdown_by_size,
    summarize_fabric,
)

__all__ = [
    "GIT_REVISION",
    "BuildWarning",
    "Campaign",
    "Config",
    "FabricCampaign",
    "FabricConfig",
    "FabricRunResult",
    "Launch",
    "MeanInterval",
    "RunResult",
    "__version__",
    "fabric_parameters",
    "hpcc_config",
    "mean_interval",
    "param_combinations",
    "parameters",
    "run",
    "run_fabric",
    "slowdown_by_size",
    "summarize",
    "summarize_fabric",
]
