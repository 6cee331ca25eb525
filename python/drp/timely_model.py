"""TIMELY's fluid model: the delay-differential equations of its analysis, solved numerically.

The model is the one of Zhu et al., "ECN or Delay: Lessons Learnt from
Analysis of DCQCN and TIMELY" (CoNEXT 2016, section 4), for the algorithm of
Mittal et al., "TIMELY: RTT-based Congestion Control for the Datacenter"
(SIGCOMM 2015). N flows share one bottleneck of capacity C; flow i has a
rate R_i and a normalised gradient g_i; the round trip is the base RTT plus
the queue's delay; each flow updates once per completion event, every
tau_i = max(Seg / R_i, D_minRTT), on what it sees one round trip tau' late::

    RTT(t)  = base + q(t) / C
    dg_i    = alpha / tau_i ((RTT(s) - RTT(s - tau_i)) / D_minRTT - g_i)
    dR_i    =  delta / tau_i                         RTT(s) < T_low
            = -beta / tau_i (1 - T_high / RTT(s)) R_i  RTT(s) > T_high
            = -beta / tau_i g_i R_i                  g_i > 0
            =  N delta / tau_i                       otherwise
    dq      = sum(R_i) - C   (q >= 0)

where s is the latest send time whose acknowledgement has come back,
s + RTT(s) = t (the paper writes t - tau', which is the same while the queue
changes slowly; at a flow's arrival the queue grows at up to C, and only the
exact lag lets the senders see it).

N is 1, and ``hai_threshold`` once g_i has stayed at or below 0 for that
many of the flow's update intervals (the paper's hyper additive increase).
Rates stay within [min rate, C].

The model's point, which drp-figures cc-validation reproduces with drp's
``DrpTimely``: wherever T_low < RTT < T_high with a steady queue every g_i
decays to 0 and both increase and decrease stop, whatever the split of C,
so flows keep the unequal rates their history gave them (TIMELY has no
unique fixed point).

:func:`solve` integrates it with a fixed step (Euler, 0.5 us by default: the
shortest update interval, D_minRTT = 20 us, spans 40 steps) and returns the
rates and the queue over time. :func:`drp_parameters` gives the parameters of
a drp fabric run.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd


@dataclasses.dataclass(frozen=True)
class TimelyModel:
    """The parameters of the fluid model, in bits, bytes and seconds.

    Defaults: the TIMELY paper's at its 10 Gb/s (beta 0.8, delta 10 Mb/s,
    T_low 50 us, T_high 500 us, D_minRTT 20 us, N 5, segments of 16 KB)
    with the EWMA weight alpha 0.875 of HPCC's simulator and the analysis.
    ``base_rtt`` is the round trip with an empty queue; ``packet_bytes``
    what one frame takes of the line (drp's full data frame on the wire:
    1,094 bytes), ``queued_bytes`` what it counts in the switch queue (1,074).
    """

    line_rate: float = 10e9  #: C, bit/s
    alpha: float = 0.875
    beta: float = 0.8
    step: float = 10e6  #: delta, bit/s
    hai_threshold: int = 5  #: N
    t_low: float = 50e-6  #: s
    t_high: float = 500e-6  #: s
    min_rtt: float = 20e-6  #: D_minRTT, s
    segment: float = 16 * 1024  #: Seg, bytes
    min_rate: float = 10e6  #: bit/s
    base_rtt: float = 5e-6  #: s
    packet_bytes: float = 1094.0
    queued_bytes: float = 1074.0

    def update_interval(self, rate: np.ndarray) -> np.ndarray:
        """tau_i = max(Seg / R_i, D_minRTT) of rates in bit/s."""
        r = np.maximum(np.asarray(rate, dtype=float), 1.0)
        return np.maximum(self.segment * 8 / r, self.min_rtt)

    def rate_derivative(
        self, rate: np.ndarray, gradient: np.ndarray, rtt_lag: float, hyper: np.ndarray
    ) -> np.ndarray:
        """dR_i/dt (bit/s per second) for the RTT seen one round trip late.

        ``hyper``: flows whose gradient has stayed non-positive long enough
        for hyper additive increase.
        """
        tau = self.update_interval(rate)
        if rtt_lag < self.t_low:
            return self.step / tau
        if rtt_lag > self.t_high:
            return -self.beta / tau * (1 - self.t_high / rtt_lag) * rate
        n = np.where(hyper, self.hai_threshold, 1)
        return np.where(gradient > 0, -self.beta / tau * gradient * rate, n * self.step / tau)

    def solve(
        self,
        flows: int,
        duration: float,
        step: float = 0.5e-6,
        starts: Sequence[float] | None = None,
        ends: Sequence[float] | None = None,
        initial_rates: Sequence[float] | None = None,
        record_every: float = 10e-6,
    ) -> pd.DataFrame:
        """Integrate the model for ``flows`` flows over ``duration`` seconds.

        ``starts`` and ``ends`` (seconds, one per flow; default 0 and never)
        bound each flow's life; a flow starts at its ``initial_rates`` entry
        (bit/s; default the line rate, as drp's TIMELY starts). Returns one
        row per ``record_every``: ``time_s``, ``queue_bytes``, ``rtt_s`` and
        ``rate_bps_<i>`` for each flow (0 outside its life).
        """
        if flows < 1 or duration <= 0 or step <= 0:
            raise ValueError(
                f"flows = {flows}, duration = {duration}, step = {step}: "
                "flows must be at least 1, duration and step above 0"
            )
        if self.min_rtt <= 0 or self.t_high <= 0 or self.segment <= 0 or self.line_rate <= 0:
            raise ValueError(
                f"min_rtt = {self.min_rtt}, t_high = {self.t_high}, segment = {self.segment}, "
                f"line_rate = {self.line_rate}: each must be above 0"
            )
        if not 0 <= self.alpha <= 1 or not 0 <= self.beta <= 1:
            raise ValueError(f"alpha = {self.alpha}, beta = {self.beta}: each in [0, 1]")
        starts_a = np.zeros(flows) if starts is None else np.asarray(starts, dtype=float)
        ends_a = np.full(flows, np.inf) if ends is None else np.asarray(ends, dtype=float)
        first = (
            np.full(flows, self.line_rate)
            if initial_rates is None
            else np.asarray(initial_rates, dtype=float)
        )
        if len(starts_a) != flows or len(ends_a) != flows or len(first) != flows:
            raise ValueError(f"starts, ends and initial_rates need one value per flow ({flows})")
        # The queue counts queued_bytes per frame; the line moves packet_bytes per frame.
        to_queued = self.queued_bytes / self.packet_bytes / 8  # bit/s on the line -> queued B/s
        drain = self.line_rate * to_queued
        steps = int(round(duration / step))
        every = max(1, int(round(record_every / step)))
        rtt_history = np.full(steps + 1, self.base_rtt)
        rate = np.zeros(flows)
        gradient = np.zeros(flows)
        negative_for = np.zeros(flows)  # seconds the gradient has stayed <= 0
        active = np.zeros(flows, dtype=bool)
        queue = 0.0  # bytes
        seen = 0  # the step whose frames' RTT the senders see now
        rows = []
        for n in range(steps + 1):
            t = n * step
            now_active = (starts_a <= t) & (t < ends_a)
            joined = now_active & ~active
            rate[joined] = first[joined]
            gradient[joined] = 0.0
            negative_for[joined] = 0.0
            rate[~now_active] = 0.0
            active = now_active
            rtt = self.base_rtt + queue / drain
            rtt_history[n] = rtt
            if n % every == 0:
                row: dict[str, Any] = {"time_s": t, "queue_bytes": queue, "rtt_s": rtt}
                for i in range(flows):
                    row[f"rate_bps_{i}"] = rate[i]
                rows.append(row)
            if not active.any() and queue <= 0:
                continue
            # What the senders see now: the RTT of the frames sent at s with
            # s + RTT(s) <= t, the latest (s + RTT(s) never decreases: the
            # queue drains at C at most), and its difference over their own
            # update interval before that.
            while seen < n and (seen + 1) * step + rtt_history[seen + 1] <= t + step / 2:
                seen += 1
            rtt_lag = rtt_history[seen]
            tau = self.update_interval(rate)
            before = np.maximum(0, seen - np.round(tau / step).astype(int))
            difference = (rtt_lag - rtt_history[before]) / self.min_rtt
            d_gradient = self.alpha / tau * (difference - gradient)
            hyper = negative_for >= self.hai_threshold * tau
            d_rate = self.rate_derivative(rate, gradient, rtt_lag, hyper)
            gradient = np.where(active, gradient + step * d_gradient, 0.0)
            negative_for = np.where(gradient <= 0, negative_for + step, 0.0)
            floor = min(self.min_rate, self.line_rate)
            rate = np.where(active, np.clip(rate + step * d_rate, floor, self.line_rate), 0.0)
            queue = max(0.0, queue + step * (rate.sum() - self.line_rate) * to_queued)
        return pd.DataFrame(rows)


def drp_parameters(params: Mapping[str, Any], **overrides: Any) -> TimelyModel:
    """Return the model of a drp fabric run's parameters (``run_fabric``'s, as
    ``FabricRunResult.params`` reads them back): its host rate and TIMELY's
    attributes (their defaults, or the run's ``defaults``) at that rate,
    scaled as ``DrpTimely`` scales them; ``overrides`` replace any field
    (``base_rtt`` in the first place: the fabric's empty round trip)."""
    from drp.run_attributes import attribute_reader, frame_bytes, rate_scale

    attribute = attribute_reader(params)
    scale = rate_scale(params, attribute, "ns3::DrpTimely::ReferenceRate")
    frame, wire = frame_bytes(params)
    values: dict[str, Any] = {
        "line_rate": float(params["host_rate"]),
        "alpha": attribute("ns3::DrpTimely::Alpha"),
        "beta": attribute("ns3::DrpTimely::Beta"),
        "step": attribute("ns3::DrpTimely::AdditiveStep") * scale,
        "hai_threshold": int(attribute("ns3::DrpTimely::HaiThreshold")),
        "t_low": attribute("ns3::DrpTimely::TLow"),
        "t_high": attribute("ns3::DrpTimely::THigh"),
        "min_rtt": attribute("ns3::DrpTimely::MinRtt"),
        "segment": attribute("ns3::DrpTimely::Segment"),
        "min_rate": attribute("ns3::DrpTimely::MinRate") * scale,
        "packet_bytes": wire,
        "queued_bytes": frame,
    }
    values.update(overrides)
    return TimelyModel(**values)
