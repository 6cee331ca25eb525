"""DCQCN's fluid model: the delay-differential equations of its analysis, solved numerically.

The model is the one of Zhu et al., "Congestion Control for Large-Scale RDMA
Deployments" (SIGCOMM 2015, section 5), in the form of Zhu et al., "ECN or
Delay: Lessons Learnt from Analysis of DCQCN and TIMELY" (CoNEXT 2016,
equations 1 to 5). N flows share one bottleneck of capacity C (packets per
second); flow i has a current rate R_C, a target rate R_T and alpha; the
switch marks with RED's probability p of the queue q; everything the
sender sees is delayed by the feedback delay tau*::

    p       = 0 (q <= Kmin), Pmax (q - Kmin) / (Kmax - Kmin) (Kmin < q <= Kmax), 1 (q > Kmax)
    a       = 1 - (1 - p')^(tau R_C')                at least one CNP in tau
    b       = p' / ((1 - p')^-B - 1)                 byte-counter events per packet
    c       = b (1 - p')^(F B)                       ... past fast recovery
    d       = p' / ((1 - p')^-(T R_C') - 1)          timer events per packet
    e       = d (1 - p')^(F T R_C')                  ... past fast recovery
    dalpha  = g / tau' ((1 - (1 - p')^(tau' R_C')) - alpha)
    dR_T    = -(R_T - R_C) a / tau + R_AI R_C' (c + e)
    dR_C    = -R_C alpha a / (2 tau) + (R_T - R_C) R_C' (b + d) / 2
    dq      = sum(R_C) - C   (q >= 0)

where a prime marks a value tau* ago, tau is the CNP interval (the
notification point sends at most one per tau), tau' the alpha timer, T the
rate-increase timer, B the byte counter in packets, F the fast-recovery
steps and R_AI the additive step. Hyper increase is left out, as the papers
leave it out (at a marking rate that keeps the queue between Kmin and Kmax
it never starts). The limits p -> 0 (b = c = 1/B, d = e = 1/(T R_C')) and
p = 1 (a = 1, b = c = d = e = 0) are taken exactly. Rates stay within
[min rate, C].

:func:`solve` integrates it with a fixed step (Euler, 0.5 us by default: the
shortest time constant, tau = 50 us, spans 100 steps) and returns the rates
and the queue over time; flows may start and stop at given times (a flow
that starts does so at the line rate with alpha 1, as DCQCN's reaction
point does). :func:`drp_parameters` gives the parameters of a drp fabric
run, so that the model and the simulation are compared on the same
settings.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd


@dataclasses.dataclass(frozen=True)
class DcqcnModel:
    """The parameters of the fluid model, in bits, bytes and seconds.

    Defaults: the DCQCN paper's (SIGCOMM 2015, its table of parameters and
    section 5) at its 40 Gb/s: Kmin 5 KB, Kmax 200 KB, Pmax 1 %, g 1/256,
    tau 50 us, tau' 55 us, T 55 us, B 10 MB, F 5, R_AI 40 Mb/s.
    ``packet_bytes`` is what one packet takes of the line (drp's full data
    frame on the wire: 1,094 bytes); ``queued_bytes`` what it counts in the
    switch queue that marks it (the frame less preamble and gap: 1,074).
    """

    line_rate: float = 40e9  #: C, bit/s
    kmin: float = 5e3  #: bytes
    kmax: float = 200e3  #: bytes
    pmax: float = 0.01
    g: float = 1 / 256
    cnp_interval: float = 50e-6  #: tau, s
    alpha_interval: float = 55e-6  #: tau', s
    increase_interval: float = 55e-6  #: T, s
    byte_counter: float = 10e6  #: B, bytes
    fast_recovery: int = 5  #: F
    rate_ai: float = 40e6  #: R_AI, bit/s
    min_rate: float = 0.0  #: bit/s
    feedback_delay: float = 10e-6  #: tau*, s
    packet_bytes: float = 1094.0
    queued_bytes: float = 1074.0

    def marking(self, queue_bytes: np.ndarray | float) -> np.ndarray:
        """RED's marking probability of a queue (bytes)."""
        q = np.asarray(queue_bytes, dtype=float)
        ramp = self.pmax * (q - self.kmin) / (self.kmax - self.kmin)
        return np.where(q <= self.kmin, 0.0, np.where(q <= self.kmax, ramp, 1.0))

    def derivatives(
        self,
        rc: np.ndarray,
        rt: np.ndarray,
        alpha: np.ndarray,
        rc_lag: np.ndarray,
        p_lag: float,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return (dR_C/dt, dR_T/dt, dalpha/dt), rates in packets per second.

        ``rc_lag`` and ``p_lag``: R_C and the marking probability tau* ago.
        """
        p = float(p_lag)
        packets_b = self.byte_counter / self.packet_bytes
        tau, tau_a, timer, f = (
            self.cnp_interval,
            self.alpha_interval,
            self.increase_interval,
            self.fast_recovery,
        )
        r = np.maximum(rc_lag, 1e-9)
        if p <= 0.0:
            a = np.zeros_like(r)
            b = np.full_like(r, 1.0 / packets_b)
            c = b
            d = 1.0 / (timer * r)
            e = d
            marked_alpha = np.zeros_like(r)
        elif p >= 1.0:
            a = np.ones_like(r)
            b = c = d = e = np.zeros_like(r)
            marked_alpha = np.ones_like(r)
        else:
            # (1 - p)^x as exp(x log1p(-p)): exact to the last digits at small p too.
            log_keep = np.log1p(-p)
            with np.errstate(over="ignore"):
                a = -np.expm1(tau * r * log_keep)
                b = np.full_like(r, p / np.expm1(-packets_b * log_keep))
                c = b * np.exp(f * packets_b * log_keep)
                d = p / np.expm1(-timer * r * log_keep)
                e = d * np.exp(f * timer * r * log_keep)
            marked_alpha = -np.expm1(tau_a * r * log_keep)
        ai = self.rate_ai / (self.packet_bytes * 8)
        d_alpha = self.g / tau_a * (marked_alpha - alpha)
        d_rt = -(rt - rc) * a / tau + ai * r * (c + e)
        d_rc = -rc * alpha * a / (2 * tau) + (rt - rc) * r * (b + d) / 2
        return d_rc, d_rt, d_alpha

    def solve(
        self,
        flows: int,
        duration: float,
        step: float = 0.5e-6,
        starts: Sequence[float] | None = None,
        ends: Sequence[float] | None = None,
        record_every: float = 1e-6,
    ) -> pd.DataFrame:
        """Integrate the model for ``flows`` flows over ``duration`` seconds.

        ``starts`` and ``ends`` (seconds, one per flow; default 0 and never)
        bound each flow's life. Returns one row per ``record_every``:
        ``time_s``, ``queue_bytes``, ``marking`` (p at that time) and
        ``rate_bps_<i>`` for each flow (0 outside its life; bit/s of
        ``packet_bytes`` packets, comparable with the line rate).
        """
        if flows < 1 or duration <= 0 or step <= 0:
            raise ValueError(
                f"flows = {flows}, duration = {duration}, step = {step}: "
                "flows must be at least 1, duration and step above 0"
            )
        starts_a = np.zeros(flows) if starts is None else np.asarray(starts, dtype=float)
        ends_a = np.full(flows, np.inf) if ends is None else np.asarray(ends, dtype=float)
        if len(starts_a) != flows or len(ends_a) != flows:
            raise ValueError(f"starts and ends need one time per flow ({flows})")
        pps = 1.0 / (self.packet_bytes * 8)
        capacity = self.line_rate * pps
        floor = self.min_rate * pps
        steps = int(round(duration / step))
        lag = max(1, int(round(self.feedback_delay / step)))
        every = max(1, int(round(record_every / step)))
        rc = np.zeros(flows)
        rt = np.zeros(flows)
        alpha = np.ones(flows)
        active = np.zeros(flows, dtype=bool)
        queue = 0.0  # packets
        # Ring buffers of what the senders see tau* later.
        rc_ring = np.zeros((lag, flows))
        q_ring = np.zeros(lag)
        rows = []
        for n in range(steps + 1):
            t = n * step
            now_active = (starts_a <= t) & (t < ends_a)
            joined = now_active & ~active
            rc[joined] = rt[joined] = capacity
            alpha[joined] = 1.0
            rc[~now_active] = rt[~now_active] = 0.0
            active = now_active
            slot = n % lag
            rc_lag = np.where(active, np.where(n >= lag, rc_ring[slot], rc), 0.0)
            q_lag = q_ring[slot] if n >= lag else queue
            p_lag = float(self.marking(q_lag * self.queued_bytes))
            if n % every == 0:
                row: dict[str, Any] = {
                    "time_s": t,
                    "queue_bytes": queue * self.queued_bytes,
                    "marking": float(self.marking(queue * self.queued_bytes)),
                }
                for i in range(flows):
                    row[f"rate_bps_{i}"] = rc[i] / pps
                rows.append(row)
            rc_ring[slot] = rc
            q_ring[slot] = queue
            if not active.any() and queue <= 0:
                continue
            d_rc, d_rt, d_alpha = self.derivatives(rc, rt, alpha, rc_lag, p_lag)
            rc = np.where(active, np.clip(rc + step * d_rc, floor, capacity), 0.0)
            rt = np.where(active, np.clip(rt + step * d_rt, floor, capacity), 0.0)
            alpha = np.where(active, np.clip(alpha + step * d_alpha, 0.0, 1.0), alpha)
            queue = max(0.0, queue + step * (rc.sum() - capacity))
        return pd.DataFrame(rows)


def drp_parameters(params: Mapping[str, Any], **overrides: Any) -> DcqcnModel:
    """Return the model of a drp fabric run's parameters (``run_fabric``'s, as
    ``FabricRunResult.params`` reads them back): its host rate, its ECN
    thresholds in bytes and DCQCN's attributes (their defaults, or the run's
    ``defaults``) at that rate, scaled as ``DrpDcqcn`` scales them;
    ``overrides`` replace any field (``feedback_delay`` in the first place:
    the loop's delay, which the fabric sets)."""
    from drp import _drp
    from drp.run_attributes import attribute_reader, frame_bytes, rate_scale

    attribute = attribute_reader(params)
    scale = rate_scale(params, attribute, "ns3::DrpDcqcn::ReferenceRate")
    frame, wire = frame_bytes(params)
    values: dict[str, Any] = {
        "line_rate": float(params["host_rate"]),
        "kmin": _drp.queue_bytes(str(params["ecn_min"]), frame),
        "kmax": _drp.queue_bytes(str(params["ecn_max"]), frame),
        "pmax": float(params["ecn_pmax"]),
        "g": attribute("ns3::DrpDcqcn::G"),
        "cnp_interval": attribute("ns3::DrpTransport::CnpInterval"),
        "alpha_interval": attribute("ns3::DrpDcqcn::AlphaInterval"),
        "increase_interval": attribute("ns3::DrpDcqcn::IncreaseInterval"),
        "byte_counter": attribute("ns3::DrpDcqcn::ByteCounter") * scale,
        "fast_recovery": int(attribute("ns3::DrpDcqcn::FastRecoverySteps")),
        "rate_ai": attribute("ns3::DrpDcqcn::RateAi") * scale,
        "min_rate": attribute("ns3::DrpDcqcn::MinRate") * scale,
        "packet_bytes": wire,
        "queued_bytes": frame,
    }
    values.update(overrides)
    return DcqcnModel(**values)
