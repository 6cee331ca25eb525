"""The paper's hardware testbed (NIC profile paper-testbed): what makes the
dynamic method's advantage larger with small frames (doc/validation.rst).

With a DMA request costing more than a small frame's time on the wire (5 us)
and a registration long enough for the indirect buffer to fill (1 ms), a
write that goes indirect saves the direct path's requests of the frames its
buffer took: 48 KiB are 192 frames of 256 bytes but 48 of 1024, so each such
write saves more with the small frames (the model predicts about 0.7 ms more:
144 requests of about 5 us). Checked on the per-transfer savings of the
writes that went indirect (traditional minus dynamic, paired by transfer
index): registrations fail for the same transfers at both frame sizes (the
runs draw them from per-transfer streams), so the savings of a transfer at
256 and at 1024 bytes are paired too, and the check is a 95% Student-t
interval of their difference. Without the two conditions (the testbed's own
values) each such write saves about the same at both sizes (the handshake
timeouts), the difference's interval within +-150 us.
"""

import numpy as np
import pytest
from scipy import stats

import drp

TESTBED = {
    "nic": "paper-testbed",
    "frp": 0.2,
    "lfp": 0.0,
    "pings": True,
    "ping_interval": 500e-6,
    "transfers": 120,
    "size": 131072,
}
CONDITIONS = {
    "ns3::PcieLink::DmaSetupTime": "5us",
    "ns3::RdmaHostApplication::RegistrationFixedLatency": "1ms",
}


def indirect_savings(payload, defaults):
    """Return, per write the dynamic method sent indirect (by transfer index),
    its traditional minus its dynamic duration (us)."""
    records = {
        method: drp.run(method=method, payload=payload, defaults=defaults, **TESTBED).records
        for method in ("traditional", "dynamic")
    }
    traditional = records["traditional"].set_index("index")["duration_us"]
    dynamic = records["dynamic"].set_index("index")
    indirect = dynamic[dynamic["mode"] == "indirect"].index
    return traditional[indirect] - dynamic.loc[indirect, "duration_us"]


def paired_difference(defaults):
    """Return (mean, low, high): 95% interval of the savings at 256 minus those at 1024 bytes."""
    small, large = indirect_savings(256, defaults), indirect_savings(1024, defaults)
    both = small.index.intersection(large.index)
    assert len(both) >= 10, "enough writes went indirect at both sizes"
    difference = (small[both] - large[both]).to_numpy()
    half = stats.t.ppf(0.975, len(difference) - 1) * difference.std(ddof=1) / np.sqrt(len(difference))
    return difference.mean(), difference.mean() - half, difference.mean() + half


def test_small_frames_save_more_when_requests_bind_and_registration_lasts():
    mean, low, high = paired_difference(CONDITIONS)
    assert low > 0, f"256-byte writes save {mean:.0f} us more, 95% interval [{low:.0f}, {high:.0f}]"
    assert mean == pytest.approx(720, abs=200), "about 144 requests of 5 us"


def test_on_the_testbed_alone_every_frame_size_saves_the_same():
    mean, low, high = paired_difference({})
    assert -150 < low and high < 150, f"difference {mean:.0f} us, interval [{low:.0f}, {high:.0f}]"
