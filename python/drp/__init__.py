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
"""

from drp._build import GIT_REVISION
from drp._drp import Config, MeanInterval, __version__, mean_interval
from drp.campaign import BuildWarning, Campaign, param_combinations
from drp.experiment import RunResult, parameters, run, summarize

__all__ = [
    "GIT_REVISION",
    "BuildWarning",
    "Campaign",
    "Config",
    "MeanInterval",
    "RunResult",
    "__version__",
    "mean_interval",
    "param_combinations",
    "parameters",
    "run",
    "summarize",
]
