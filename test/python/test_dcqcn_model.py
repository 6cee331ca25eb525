"""DCQCN's fluid model (drp.dcqcn_model): its equations, limits and behaviour, and its parameters."""

import math

import numpy as np
import pytest

import drp
from drp.dcqcn_model import DcqcnModel, drp_parameters

PAPER = DcqcnModel(feedback_delay=4e-6)


def test_red_marking():
    p = PAPER.marking(np.array([0, 5e3, 102.5e3, 200e3, 200.1e3]))
    assert p.tolist() == pytest.approx([0, 0, 0.005, 0.01, 1])


def test_derivatives_follow_the_published_equations():
    """One state worked out by hand from equations 1-5 of "ECN or Delay" (CoNEXT 2016)."""
    m = PAPER
    pps = 1 / (m.packet_bytes * 8)
    rc, rt, alpha, lag, p = 10e9 * pps, 20e9 * pps, 0.5, 12e9 * pps, 0.004
    b_packets = m.byte_counter / m.packet_bytes
    a = 1 - (1 - p) ** (m.cnp_interval * lag)
    b = p / ((1 - p) ** -b_packets - 1)
    c = b * (1 - p) ** (m.fast_recovery * b_packets)
    d = p / ((1 - p) ** (-m.increase_interval * lag) - 1)
    e = d * (1 - p) ** (m.fast_recovery * m.increase_interval * lag)
    ai = m.rate_ai * pps
    want_rc = -rc * alpha * a / (2 * m.cnp_interval) + (rt - rc) * lag * (b + d) / 2
    want_rt = -(rt - rc) * a / m.cnp_interval + ai * lag * (c + e)
    want_alpha = m.g / m.alpha_interval * ((1 - (1 - p) ** (m.alpha_interval * lag)) - alpha)
    d_rc, d_rt, d_alpha = m.derivatives(
        np.array([rc]), np.array([rt]), np.array([alpha]), np.array([lag]), p
    )
    assert d_rc[0] == pytest.approx(want_rc, rel=1e-9)
    assert d_rt[0] == pytest.approx(want_rt, rel=1e-9)
    assert d_alpha[0] == pytest.approx(want_alpha, rel=1e-9)


def test_the_limits_of_no_marking_and_certain_marking_are_continuous():
    state = [np.array([10e9 / 8752]), np.array([20e9 / 8752]), np.array([0.5]), np.array([1.2e6])]
    at_zero = PAPER.derivatives(*state, 0.0)
    near_zero = PAPER.derivatives(*state, 1e-12)
    for exact, near in zip(at_zero, near_zero):
        assert near[0] == pytest.approx(exact[0], rel=1e-6, abs=1e-6)
    at_one = PAPER.derivatives(*state, 1.0)
    near_one = PAPER.derivatives(*state, 1 - 1e-12)
    for exact, near in zip(at_one, near_one):
        assert near[0] == pytest.approx(exact[0], rel=1e-6, abs=1e-6)


@pytest.mark.parametrize("flows", [2, 10])
def test_flows_settle_at_their_fair_share_with_the_queue_between_kmin_and_kmax(flows):
    """The paper's section 5: the flows converge to C / N, the queue between the thresholds."""
    f = PAPER.solve(flows, 0.03, record_every=10e-6)
    late = f[f["time_s"] >= 0.02]
    rates = np.array([late[f"rate_bps_{i}"].mean() for i in range(flows)])
    assert rates == pytest.approx(np.full(flows, 40e9 / flows), rel=0.02)
    assert PAPER.kmin < late["queue_bytes"].mean() < PAPER.kmax
    assert f["queue_bytes"].min() >= 0


def test_a_flow_lives_from_its_start_to_its_end():
    f = PAPER.solve(2, 0.02, starts=[0, 0.005], ends=[0.015, math.inf], record_every=1e-4)
    before = f[f["time_s"] < 0.005 - 1e-9]
    assert (before["rate_bps_1"] == 0).all()
    assert f[f["time_s"] >= 0.015]["rate_bps_0"].eq(0).all()
    # The joiner starts at the line rate, as DCQCN's reaction point does.
    assert f[np.isclose(f["time_s"], 0.005)]["rate_bps_1"].iloc[0] == pytest.approx(40e9)
    # Alone after the departure, the other flow climbs (additive increase).
    alone = f[f["time_s"] >= 0.0155]["rate_bps_1"].to_numpy()
    assert alone[-1] > alone[0]


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="flows = 0"):
        PAPER.solve(0, 0.01)
    with pytest.raises(ValueError, match="one time per flow"):
        PAPER.solve(2, 0.01, starts=[0])


def test_the_parameters_of_a_run_scale_as_drp_dcqcn_does():
    """At 10 Gb/s the paper's 40 Gb/s values scale by 1/4; defaults given to the run win."""
    params = drp.run_fabric(
        hosts=3,
        degree=2,
        bytes=4096,
        host_rate="10Gbps",
        ecn=True,
        ecn_min="5p",
        ecn_max="10p",
        cc="dcqcn",
        defaults={"ns3::DrpDcqcn::G": "0.0625"},
    ).params
    m = drp_parameters(params, feedback_delay=2e-6)
    assert m.line_rate == 10e9
    assert m.byte_counter == pytest.approx(2.5e6)
    assert m.rate_ai == pytest.approx(10e6)
    assert m.min_rate == pytest.approx(25e6)
    assert m.g == 0.0625
    assert m.kmin == 5 * 1074 and m.kmax == 10 * 1074
    assert m.cnp_interval == pytest.approx(50e-6)
    assert m.increase_interval == pytest.approx(55e-6)
    assert m.feedback_delay == 2e-6
    assert m.packet_bytes == 1094
