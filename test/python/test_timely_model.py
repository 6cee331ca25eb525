"""TIMELY's fluid model (drp.timely_model): its equations and behaviour, its parameters, and cc="timely"."""

import numpy as np
import pytest

import drp
from drp.timely_model import TimelyModel, drp_parameters

PAPER = TimelyModel()


def test_the_update_interval_is_a_segment_at_the_rate_or_min_rtt():
    # 16 KiB at 1 Gb/s: 131 us; at 10 Gb/s 13 us, less than MinRtt's 20 us.
    got = PAPER.update_interval(np.array([1e9, 10e9]))
    assert got.tolist() == pytest.approx([16 * 1024 * 8 / 1e9, 20e-6])


def test_each_branch_of_the_rate_equation():
    """Algorithm 1 of the TIMELY paper as rates of change: worked out by hand."""
    m = PAPER
    rate = np.array([1e9, 1e9])
    tau = 16 * 1024 * 8 / 1e9
    no = np.array([False, False])
    low = m.rate_derivative(rate, np.array([0.5, -0.5]), 40e-6, no)
    assert low.tolist() == pytest.approx([10e6 / tau] * 2), "below T_low: + delta whatever g"
    high = m.rate_derivative(rate, np.array([-0.5, 0.5]), 600e-6, no)
    assert high.tolist() == pytest.approx([-0.8 / tau * (1 - 500 / 600) * 1e9] * 2)
    mid = m.rate_derivative(rate, np.array([0.25, -0.1]), 100e-6, np.array([False, True]))
    assert mid.tolist() == pytest.approx([-0.8 / tau * 0.25 * 1e9, 5 * 10e6 / tau])


def test_flows_that_start_alike_share_the_line_equally_with_rtt_near_t_low():
    f = PAPER.solve(2, 0.06, step=1e-6, record_every=1e-4)
    late = f[f["time_s"] >= 0.03]
    rates = np.array([late["rate_bps_0"].mean(), late["rate_bps_1"].mean()])
    assert rates[0] == pytest.approx(rates[1], rel=1e-6)
    assert 0.85 < rates.sum() / 10e9 <= 1.0
    assert late["rtt_s"].max() < PAPER.t_high


def test_flows_that_start_at_unequal_rates_stay_unequal():
    """No unique fixed point ("ECN or Delay", CoNEXT 2016): the start decides the split."""
    f = PAPER.solve(2, 0.06, step=1e-6, initial_rates=[7e9, 3e9], record_every=1e-4)
    late = f[f["time_s"] >= 0.03]
    share = late["rate_bps_0"].mean() / (late["rate_bps_0"].mean() + late["rate_bps_1"].mean())
    assert share > 0.7


def test_start_and_end_times_and_refusals():
    f = PAPER.solve(2, 0.002, step=1e-6, starts=[0, 0.001], ends=[0.0015, np.inf])
    assert (f[f["time_s"] < 0.001]["rate_bps_1"] == 0).all()
    assert (f[f["time_s"] >= 0.0015]["rate_bps_0"] == 0).all()
    with pytest.raises(ValueError, match="flows = 0"):
        PAPER.solve(0, 0.001)
    with pytest.raises(ValueError, match="one value per flow"):
        PAPER.solve(2, 0.001, initial_rates=[1e9])
    with pytest.raises(ValueError, match="min_rtt = 0"):
        TimelyModel(min_rtt=0).solve(1, 0.001)
    with pytest.raises(ValueError, match="alpha = 2"):
        TimelyModel(alpha=2).solve(1, 0.001)


def test_drp_parameters_read_timely_s_attributes_scaled_to_the_line_rate():
    params = {"host_rate": 40e9, "payload": 1024}
    m = drp_parameters(params, base_rtt=4e-6)
    assert (m.alpha, m.beta, m.hai_threshold) == (0.875, 0.8, 5)
    assert (m.t_low, m.t_high, m.min_rtt) == pytest.approx((50e-6, 500e-6, 20e-6))
    assert m.step == pytest.approx(40e6), "10 Mb/s at 10 Gb/s: 40 Mb/s at 40"
    assert m.min_rate == pytest.approx(40e6)
    assert m.segment == 16 * 1024 and m.base_rtt == 4e-6
    given = {**params, "defaults": {"ns3::DrpTimely::ReferenceRate": "0bps"}}
    assert drp_parameters(given).step == pytest.approx(10e6), "0: as given"


def test_run_fabric_accepts_timely_without_ecn():
    r = drp.run_fabric(
        hosts=3, degree=2, bytes=2_000_000, host_rate="10Gbps", cc="timely", window=1024,
        queue="8MB", rates=True, stagger="500us",
    )
    assert r.params["cc"] == "timely" and not r.params["ecn"]
    assert r.summary["successes"] == 2
    assert len(r.rates) > 0
    with pytest.raises(ValueError, match="timely"):
        drp.run_fabric(hosts=3, cc="swift")

